/** Merging an update into the configuration (reference §4.2). */
import type { JsonRecord } from '../../../sdk/index.js';

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Merge `updates` into `target` in place: objects merge key by key, recursively; arrays, scalars
 * and null replace what was there. Returns `target`.
 */
export function deepMerge(target: JsonRecord, updates: Readonly<JsonRecord>): JsonRecord {
  for (const [key, value] of Object.entries(updates)) {
    const current = target[key];
    if (isRecord(value) && isRecord(current)) deepMerge(current, value);
    else target[key] = structuredClone(value);
  }
  return target;
}
