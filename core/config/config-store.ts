/**
 * The sdk's `StackConfig`: the in-memory document, validated updates swapped atomically, and
 * atomic saves (whole document, or one subtree merged into the file as it is on disk).
 */
import { readFile } from 'node:fs/promises';
import type {
  ConfigChange,
  ConfigUpdateOptions,
  ConfigValidator,
  ConfigVersionSummary,
  ConfigView,
  JsonRecord,
  StackConfig,
} from '../../sdk/config.js';
import { writeFileAtomic } from '../../sdk/atomic-file.js';
import type { ConfigSource } from './config-source.js';
import { isJsonRecord, StaleConfigError } from '../../sdk/config.js';
import type { ConfigHistory } from './config-history.js';
import { cloneJson, getAtPath, setAtPath } from './json-tools.js';
import { editConfigText, formatConfigText, parseConfigText } from './jsonc-text.js';

type Mutator = (draft: JsonRecord) => JsonRecord | void;

/** What the store does with a document read back from the file (edited on disk). */
export interface AdoptOptions {
  readonly reason: string;
}

/** The configuration store of one host. */
export class ConfigStore implements StackConfig {
  private document: JsonRecord;
  private readonly validators = new Set<ConfigValidator>();
  private readonly viewList = new Set<ConfigView>();
  private readonly listeners = new Set<(change: ConfigChange) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly slices: Record<string, JsonRecord> = {};
  private originValue: 'file' | 'demo';
  // Starts from the clock so an ETag taken before a host restart never matches one after it.
  private generationValue = Date.now();
  /** The file's text as this host last wrote or read it (a watcher skips its own writes). */
  private knownText: string | undefined;
  /**
   * Texts this host wrote since the last edit from outside. A watcher event can arrive after two
   * quick writes and read the first: that text is ours, not an edit, and must not be applied
   * over the newer document.
   */
  private readonly ownTexts = new Set<string>();

  constructor(
    private readonly source: ConfigSource,
    initial: JsonRecord,
    private readonly versions: ConfigHistory | null = null,
  ) {
    this.document = cloneJson(initial);
    this.originValue = source.origin;
  }

  get generation(): number {
    return this.generationValue;
  }

  /** The file's text as the host last wrote or adopted it. */
  get lastKnownText(): string | undefined {
    return this.knownText;
  }

  get filePath(): string {
    return this.source.writePath;
  }

  get origin(): 'file' | 'demo' {
    return this.originValue;
  }

  /** Core records each loaded plugin's slice schema before the plugins register. */
  declareSliceSchema(plugin: string, schema: JsonRecord): void {
    this.slices[plugin] = cloneJson(schema);
  }

  sliceSchemas(): Readonly<Record<string, JsonRecord>> {
    return cloneJson(this.slices);
  }

  read(): JsonRecord {
    return cloneJson(this.document);
  }

  /** The host's own section (`stackd`), read-only. */
  hostSection(): JsonRecord {
    const section = this.document.stackd;
    return isJsonRecord(section) ? cloneJson(section) : {};
  }

  update(mutate: Mutator, options: ConfigUpdateOptions = {}): Promise<JsonRecord> {
    return this.inTurn(() => this.apply(mutate, options));
  }

  preview(mutate: Mutator): Promise<JsonRecord> {
    return this.inTurn(() => Promise.resolve().then(() => this.candidateOf(mutate)));
  }

  async history(): Promise<ConfigVersionSummary[]> {
    return this.versions === null ? [] : this.versions.list();
  }

  async versionDocument(version: number): Promise<JsonRecord | undefined> {
    return this.versions === null ? undefined : this.versions.document(version);
  }

  /**
   * Record the document as loaded at boot as a version when the history does not end with it
   * (a first boot, or the file edited while the host was down).
   */
  recordBootVersion(text: string | undefined): Promise<void> {
    this.knownText = text;
    return this.inTurn(async () => {
      if (this.versions === null || this.originValue === 'demo') return;
      const latest = await this.versions.latest();
      if (latest !== null && JSON.stringify(latest.document) === JSON.stringify(this.document))
        return;
      await this.versions.record(cloneJson(this.document), 'file', 'loaded at boot');
    });
  }

  /**
   * A document read back from the file (edited on disk): validated like any change, swapped in
   * and recorded as a version; the running processes follow it. Throws when it is refused.
   */
  adoptFileText(text: string, options: AdoptOptions): Promise<boolean> {
    return this.inTurn(async () => {
      if (text === this.knownText || this.ownTexts.has(text)) return false;
      const parsed = parseConfigText(text, this.source.writePath);
      this.validate(parsed);
      this.knownText = text;
      this.ownTexts.clear();
      if (this.versions !== null)
        await this.versions.record(cloneJson(parsed), 'file', options.reason);
      this.swap(parsed, { reason: options.reason, actor: 'file', apply: true });
      return true;
    });
  }

  /** Updates run one at a time so a persist never interleaves with another change. */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async save(): Promise<void> {
    await this.update(() => undefined, { persist: true, reason: 'save' });
  }

  addValidator(validator: ConfigValidator): () => void {
    this.validators.add(validator);
    return () => this.validators.delete(validator);
  }

  addView(view: ConfigView): () => void {
    this.viewList.add(view);
    return () => this.viewList.delete(view);
  }

  views(): readonly ConfigView[] {
    return [...this.viewList];
  }

  onChange(listener: (change: ConfigChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Run every validator against a candidate (throws the first failure). */
  validate(candidate: JsonRecord): void {
    for (const validator of this.validators) validator(candidate);
  }

  private candidateOf(mutate: Mutator): JsonRecord {
    const draft = cloneJson(this.document);
    const returned = mutate(draft);
    const candidate = returned === undefined ? draft : returned;
    if (!isJsonRecord(candidate)) throw new Error('the configuration must stay one JSON object');
    this.validate(candidate);
    return candidate;
  }

  private async apply(mutate: Mutator, options: ConfigUpdateOptions): Promise<JsonRecord> {
    if (options.expectGeneration !== undefined && options.expectGeneration !== this.generation)
      throw new StaleConfigError(this.generation);
    const candidate = this.candidateOf(mutate);
    if (options.persist !== undefined && options.persist !== false) {
      const written = await this.persist(
        candidate,
        options.persist === true ? null : options.persist,
      );
      if (this.versions !== null)
        await this.versions.record(written, options.actor ?? 'host', options.reason);
    }
    this.swap(candidate, options);
    return cloneJson(candidate);
  }

  private swap(candidate: JsonRecord, options: ConfigUpdateOptions): void {
    const previous = this.document;
    this.document = candidate;
    this.generationValue += 1;
    const change: ConfigChange = {
      previous,
      current: candidate,
      reason: options.reason,
      generation: this.generationValue,
      apply: options.apply === true,
      by: options.by,
    };
    for (const listener of this.listeners) listener(change);
  }

  /** Write the candidate (or one subtree of it) into the file; returns the document written. */
  private async persist(
    candidate: JsonRecord,
    subtree: readonly string[] | null,
  ): Promise<JsonRecord> {
    const text = await this.readFileText();
    let toWrite: JsonRecord = candidate;
    if (subtree !== null) {
      // Merge only this subtree into the file as it is on disk: other in-memory changes stay unsaved.
      toWrite = this.parseOrNull(text) ?? cloneJson(candidate);
      setAtPath(toWrite, subtree, cloneJson(getAtPath(candidate, subtree)));
    }
    // The file is edited in place: the user's comments, indentation and layout stay.
    const next = text === null ? formatConfigText(toWrite) : editConfigText(text, toWrite);
    await writeFileAtomic(this.source.writePath, next);
    this.knownText = next;
    this.ownTexts.add(next);
    // Only the latest few can still be in flight to a watcher.
    if (this.ownTexts.size > 16) this.ownTexts.delete(this.ownTexts.values().next().value ?? next);
    this.originValue = 'file';
    return toWrite;
  }

  private parseOrNull(text: string | null): JsonRecord | null {
    if (text === null) return null;
    try {
      return parseConfigText(text, this.source.writePath);
    } catch {
      return null;
    }
  }

  private async readFileText(): Promise<string | null> {
    if (this.originValue === 'demo') return null;
    try {
      return await readFile(this.source.writePath, 'utf8');
    } catch {
      return null;
    }
  }
}
