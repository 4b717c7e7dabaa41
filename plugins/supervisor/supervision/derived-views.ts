/**
 * Views derived from the configuration document and the process states, kept until what they
 * derive from changes: the answers they feed are read far more often than either changes.
 */
import type { JsonRecord, ProcessEntry } from '../../../sdk/index.js';

/** `derive(document)`, computed again only when `read()` returns another document. */
export function perDocument<T>(
  read: () => JsonRecord,
  derive: (document: JsonRecord) => T,
): () => T {
  let cached: { document: JsonRecord; value: T } | undefined;
  return () => {
    // read() returns the same object until the configuration changes.
    const document = read();
    if (cached?.document !== document) cached = { document, value: derive(document) };
    return cached.value;
  };
}

/** What a state view is kept against. */
export interface StateSource {
  /** The process entries of the current document (the same array until it changes). */
  readonly entries: () => ProcessEntry[];
  /** A count that moves at every state change of any process. */
  readonly changes: () => number;
}

/**
 * A view of the process states, built from the entries and kept until the configuration or a
 * state changes (or, given `maxAgeMs`, until it is that old: for views that also see what
 * happens outside the supervisor).
 */
export function stateView<T>(
  source: StateSource,
  build: (entries: readonly ProcessEntry[]) => T,
  maxAgeMs = Infinity,
): () => T {
  let cached: { entries: ProcessEntry[]; changes: number; at: number; view: T } | undefined;
  return () => {
    const entries = source.entries();
    const changes = source.changes();
    const now = maxAgeMs === Infinity ? 0 : performance.now();
    if (cached?.entries !== entries || cached.changes !== changes || now - cached.at > maxAgeMs)
      cached = { entries, changes, at: now, view: build(entries) };
    return cached.view;
  };
}
