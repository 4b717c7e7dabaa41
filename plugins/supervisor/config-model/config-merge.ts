/** Merging an update into the configuration (docs/original-product.md §5). */
import { isJsonRecord } from '../../../sdk/index.js';
import type { JsonRecord } from '../../../sdk/index.js';

/**
 * Merge `updates` into `target` in place: objects merge key by key, recursively; arrays, scalars
 * and null replace what was there. Returns `target`.
 */
export function deepMerge(target: JsonRecord, updates: Readonly<JsonRecord>): JsonRecord {
  for (const [key, value] of Object.entries(updates)) {
    const current = target[key];
    if (isJsonRecord(value) && isJsonRecord(current)) deepMerge(current, value);
    else target[key] = structuredClone(value);
  }
  return target;
}
