/**
 * JSON text with holes for raw pieces: a fuzzer needs numbers and escapes JSON.stringify never
 * writes (`-0`, `1e400`, `18446744073709551616`, `"\ud800"`), so values are trees whose leaves
 * may be raw JSON text, serialized without validation.
 */

/** A piece of JSON text placed as is. */
export interface RawJson {
  readonly raw: string;
}

/** A JSON-like value whose leaves may be raw text. */
export type FuzzValue =
  | null
  | boolean
  | number
  | string
  | RawJson
  | readonly FuzzValue[]
  | { readonly [key: string]: FuzzValue };

// Raw leaves are recognised by identity, so a generated object that happens to have one key
// named "raw" is still serialized as an object.
const rawLeaves = new WeakSet<object>();

/** A raw leaf that {@link toJsonText} splices in verbatim. */
export function rawLeaf(text: string): RawJson {
  const leaf = { raw: text };
  rawLeaves.add(leaf);
  return leaf;
}

function isRaw(value: FuzzValue): value is RawJson {
  return typeof value === 'object' && value !== null && rawLeaves.has(value);
}

/** Serialize, splicing raw leaves in as they are. Keys are escaped by JSON.stringify. */
export function toJsonText(value: FuzzValue): string {
  if (isRaw(value)) return value.raw;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item: FuzzValue) => toJsonText(item)).join(',')}]`;
  const entries = Object.entries(value as { readonly [key: string]: FuzzValue });
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`).join(',')}}`;
}

/** `depth` nested arrays or objects around a leaf, as text (no recursion, any depth). */
export function deepNesting(depth: number, kind: 'array' | 'object', leaf = '1'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
}
