/** Query strings to plain objects; repeated keys (or array-typed properties) become arrays. */
import type { TSchema } from '@sinclair/typebox';

/** Parse a raw query string against an optional object schema. */
export function parseQuery(raw: string, schema: TSchema | undefined): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const properties = (schema?.properties ?? {}) as Record<string, TSchema>;
  for (const [key, value] of new URLSearchParams(raw)) {
    const existing = result[key];
    if (existing === undefined) {
      result[key] = properties[key]?.type === 'array' ? [value] : value;
    } else if (Array.isArray(existing)) {
      existing.push(value);
    } else {
      result[key] = [existing, value];
    }
  }
  return result;
}
