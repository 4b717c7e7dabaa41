/** Small JSON helpers shared by the config store. */
import { isJsonRecord, type JsonRecord } from '../../sdk/config.js';

/** A deep copy of a JSON value. */
export function cloneJson<T>(value: T): T {
  return structuredClone(value);
}

/** A TypeBox schema as plain JSON (without its symbol keys), as the schema routes show it. */
export function plainJsonSchema(schema: unknown): JsonRecord {
  return JSON.parse(JSON.stringify(schema)) as JsonRecord;
}

/** The value at a key path, or undefined. */
export function getAtPath(document: Record<string, unknown>, path: readonly string[]): unknown {
  let current: unknown = document;
  for (const key of path) {
    if (!isJsonRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** Set the value at a key path, creating objects on the way. */
export function setAtPath(
  document: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): void {
  if (path.length === 0) throw new Error('empty key path');
  let current: Record<string, unknown> = document;
  for (const key of path.slice(0, -1)) {
    const next = current[key];
    if (!isJsonRecord(next)) {
      const created: Record<string, unknown> = {};
      current[key] = created;
      current = created;
    } else {
      current = next;
    }
  }
  current[path[path.length - 1] as string] = value;
}

/** Serialize a config document the way we write it: 2-space indent, trailing newline. */
export function formatJsonDocument(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
