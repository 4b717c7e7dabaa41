/**
 * Checks a value against a TypeBox schema and lists the failures with dotted field paths.
 *
 * The one import from outside the sdk in this plugin: the sdk exports TypeBox's `Type` but no
 * value checker yet, and this is the same TypeBox copy the sdk uses (so the sdk's `StringEnum`
 * kind is known). When the sdk offers a checker, only this file changes.
 */
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '../../../sdk/index.js';

/** One failed check: where (dotted, relative to the value) and why. */
export interface SchemaFailure {
  readonly field: string;
  readonly message: string;
}

/** `/wait_for_tcp/0/port` → `wait_for_tcp.0.port`. */
function pointerToField(pointer: string): string {
  return pointer
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** Up to `limit` failures of `value` against `schema`; empty when it is valid. */
export function checkAgainstSchema(schema: TSchema, value: unknown, limit = 20): SchemaFailure[] {
  if (Value.Check(schema, value)) return [];
  const failures: SchemaFailure[] = [];
  const seen = new Set<string>();
  for (const error of Value.Errors(schema, value)) {
    const field = pointerToField(error.path);
    // A union reports each failed branch at the same path; one message per field is enough.
    if (seen.has(field)) continue;
    seen.add(field);
    failures.push({ field, message: error.message });
    if (failures.length >= limit) break;
  }
  return failures;
}
