/**
 * JSON parsing with a nesting limit checked before `JSON.parse` runs: a body nested thousands
 * of levels deep would otherwise overflow the stack of every recursive walk after it
 * (validation, cloning, redaction). The check is one linear pass, no recursion.
 */

/** The deepest nesting of arrays and objects accepted from outside the host. */
export const MAX_JSON_DEPTH = 64;

/** The parsed value, or why the text was refused. */
export type BoundedJsonResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: 'too-deep' | 'malformed'; readonly detail: string };

/** Whether arrays/objects in `text` nest deeper than `limit` (strings are skipped). */
export function jsonNestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

/** Parse JSON from an untrusted source, refusing nesting deeper than `maxDepth`. */
export function parseBoundedJson(text: string, maxDepth = MAX_JSON_DEPTH): BoundedJsonResult {
  if (jsonNestsDeeperThan(text, maxDepth))
    return {
      ok: false,
      reason: 'too-deep',
      detail: `JSON nests deeper than ${maxDepth} levels of arrays and objects`,
    };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return {
      ok: false,
      reason: 'malformed',
      detail: `Malformed JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
