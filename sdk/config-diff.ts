/**
 * Field-level differences between two configuration documents, safe to show: a secret is
 * reported as changed or unchanged, never with its value (history, previews).
 */
import { isDeepStrictEqual } from 'node:util';
import { isJsonRecord, type ConfigFieldChange } from './config.js';
import { isSecretPath, redactConfig } from './redaction.js';
import { StringEnum, Type } from './schema.js';

/** Wire schema of one {@link ConfigFieldChange} (previews, history, service-config dry runs). */
export const ConfigFieldChangeSchema = Type.Object(
  {
    path: Type.String({ description: 'Dotted path from the document root.' }),
    old: Type.Optional(Type.Unknown({ description: 'Absent when the field is new.' })),
    new: Type.Optional(Type.Unknown({ description: 'Absent when the field is removed.' })),
    secret: Type.Optional(
      StringEnum(['changed', 'unchanged'] as const, {
        description: 'Set for secrets: their values are never shown.',
      }),
    ),
  },
  { title: 'ConfigFieldChange' },
);

/** A field path as people read it: keys joined by dots. */
export function dottedPath(path: readonly string[]): string {
  return path.join('.');
}

function fieldChange(path: readonly string[], before: unknown, after: unknown): ConfigFieldChange {
  const name = dottedPath(path);
  const secretString =
    isSecretPath(path) && (typeof before === 'string' || typeof after === 'string');
  if (secretString) return { path: name, secret: 'changed' };
  const change: { path: string; old?: unknown; new?: unknown } = { path: name };
  if (before !== undefined) change.old = redactConfig(before, path);
  if (after !== undefined) change.new = redactConfig(after, path);
  return change;
}

/** Every changed leaf (objects are walked, arrays and scalars compared whole), in key order. */
export function diffDocuments(
  before: unknown,
  after: unknown,
  path: string[] = [],
): ConfigFieldChange[] {
  if (isDeepStrictEqual(before, after)) return [];
  if (isJsonRecord(before) && isJsonRecord(after)) {
    const keys = [...Object.keys(before), ...Object.keys(after).filter((key) => !(key in before))];
    return keys.flatMap((key) => diffDocuments(before[key], after[key], [...path, key]));
  }
  return [fieldChange(path, before, after)];
}
