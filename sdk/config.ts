/**
 * The stack configuration: one JSON document (CONTRACT.md). Core owns the file; plugins read it
 * and change it through this interface, which validates, swaps atomically and persists.
 */

/** A JSON object (the configuration document and its blocks). */
export type JsonRecord = Record<string, unknown>;

/** True for a plain JSON object (not an array, not null): a block, a section, a map. */
export function isJsonRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Options of {@link StackConfig.update}. */
export interface ConfigUpdateOptions {
  /**
   * Persist to the file: `true` writes the whole in-memory document; a key path (for example
   * `['sonarr', 'instances', 'Anime']`) re-reads the file and replaces only that subtree.
   * Default: memory only.
   */
  readonly persist?: boolean | readonly string[];
  /** Who made the change (for change history); not persisted. */
  readonly reason?: string;
  /** Who asks (a username, `file`, a plugin's name): recorded with the version. */
  readonly actor?: string;
  /** The username behind the change, when a signed-in user made it (the event journal). */
  readonly by?: string;
  /**
   * Refuse the change (a {@link StaleConfigError}) unless the document is still at this
   * generation: a client's `If-Match`, checked in turn with every other change.
   */
  readonly expectGeneration?: number;
  /**
   * The running processes follow the change (restart, start, stop what it touches). Changes a
   * user asks for (POST /config, a rollback, the file edited on disk) set it; a plugin keeping
   * its own state in the document does not.
   */
  readonly apply?: boolean;
}

/** A change refused because the document moved on since the client read it. */
export class StaleConfigError extends Error {
  constructor(readonly current: number) {
    super(`the configuration changed meanwhile; its generation is now ${current}`);
    this.name = 'StaleConfigError';
  }
}

/** One persisted change as the history keeps it (values redacted). */
export interface ConfigVersionSummary {
  readonly version: number;
  /** ISO time of the write. */
  readonly at: string;
  readonly actor: string;
  readonly reason: string | null;
  /** Field-level changes against the version before (secrets as changed/unchanged). */
  readonly diff: readonly ConfigFieldChange[];
}

/** One field's change: its path from the document root, before and after. */
export interface ConfigFieldChange {
  readonly path: string;
  /** Absent when the field is new; `[REDACTED]` for a secret. */
  readonly old?: unknown;
  /** Absent when the field is removed; `[REDACTED]` for a secret. */
  readonly new?: unknown;
  /** Set for secrets, whose values are never shown. */
  readonly secret?: 'changed' | 'unchanged';
}

/** A change listener's argument. */
export interface ConfigChange {
  readonly previous: Readonly<JsonRecord>;
  readonly current: Readonly<JsonRecord>;
  readonly reason: string | undefined;
  /** The document's generation after the change. */
  readonly generation: number;
  /** See {@link ConfigUpdateOptions.apply}. */
  readonly apply: boolean;
  readonly by?: string | undefined;
}

/** A validator: throw an `InputError` naming the field to reject a candidate document. */
export type ConfigValidator = (candidate: Readonly<JsonRecord>) => void;

/**
 * A place in a client's layout of the document that a plugin fills from where stackd keeps the
 * data: GET /config shows `read(document)` at `path`, and a global POST /config update reaching
 * `path` goes through `write` instead of being merged; the rest of the update merges as usual
 * (DUMB's dashboard edits request sync as `seerr_sync` and its metrics settings as
 * `dumb.metrics`; stackd keeps them in `stackd.sync` and `stackd.metrics`). The view owns its
 * path: a value stored there is not shown and is removed by the next write. Redaction applies
 * to what `read` returns as to the document.
 */
export interface ConfigView {
  /** Keys from the document root, e.g. `['dumb', 'metrics']`. */
  readonly path: readonly string[];
  read(document: Readonly<JsonRecord>): JsonRecord;
  /** Apply an update at `path` to the draft document (throw an InputError to refuse it). */
  write(draft: JsonRecord, update: JsonRecord): void;
}

/** Access to the whole configuration document. */
export interface StackConfig {
  /** The file the document comes from, or null for the bundled demo not yet saved. */
  readonly filePath: string;
  /** `file` when loaded from the user's file; `demo` when the bundled demo is in use. */
  readonly origin: 'file' | 'demo';
  /** A deep copy of the in-memory document. */
  read(): JsonRecord;
  /**
   * Change the document: `mutate` edits a deep copy (or returns a replacement); every validator
   * runs on the result; only then is it swapped in (and persisted when asked). A throwing mutator
   * or validator changes nothing, in memory or on disk.
   */
  update(
    mutate: (draft: JsonRecord) => JsonRecord | void,
    options?: ConfigUpdateOptions,
  ): Promise<JsonRecord>;
  /** Write the in-memory document to the file atomically. */
  save(): Promise<void>;
  /** A number that changes with every change of the document, from any source. */
  readonly generation: number;
  /**
   * What `update` would make of the document, validated, without changing anything: the
   * candidate `update` would swap in (same mutator, same validators, same errors).
   */
  preview(mutate: (draft: JsonRecord) => JsonRecord | void): Promise<JsonRecord>;
  /** The persisted versions, newest first. */
  history(): Promise<ConfigVersionSummary[]>;
  /** The whole document of one version (not redacted), or undefined when it is not kept. */
  versionDocument(version: number): Promise<JsonRecord | undefined>;
  /** Add a validator every update must pass. Returns a function that removes it. */
  addValidator(validator: ConfigValidator): () => void;
  /** Listen to swaps; returns an unsubscribe function. */
  onChange(listener: (change: ConfigChange) => void): () => void;
  /**
   * The JSON schema of every loaded plugin's config slice, keyed by plugin name (the slice is
   * `stackd.<name>`): what GET /config/schema shows under `stackd`.
   */
  sliceSchemas(): Readonly<Record<string, JsonRecord>>;
  /** Add a view (see {@link ConfigView}); returns a function that removes it. */
  addView(view: ConfigView): () => void;
  /** The views plugins added, in order. */
  views(): readonly ConfigView[];
}

/**
 * A value derived from the configuration document, derived again only after the document
 * changed. `StackConfig.read()` copies the whole document on every call; a value asked for on
 * every start or event (a process list, a plugin's settings) would otherwise copy it each time.
 * Callers must treat the value as read-only: it is shared until the next change.
 */
export function derivedFromStack<T>(
  stack: StackConfig,
  derive: (document: Readonly<JsonRecord>) => T,
): () => T {
  let current: { value: T } | undefined;
  stack.onChange(() => {
    current = undefined;
  });
  return () => (current ??= { value: derive(stack.read()) }).value;
}
