/**
 * The sdk's `StackConfig`: the in-memory document, validated updates swapped atomically, and
 * atomic saves (whole document, or one subtree merged into the file as it is on disk).
 */
import { readFile } from 'node:fs/promises';
import type {
  ConfigChange,
  ConfigUpdateOptions,
  ConfigValidator,
  ConfigView,
  JsonRecord,
  StackConfig,
} from '../../sdk/config.js';
import { writeFileAtomic } from '../../sdk/atomic-file.js';
import type { ConfigSource } from './config-source.js';
import { isJsonRecord } from '../../sdk/config.js';
import { cloneJson, formatJsonDocument, getAtPath, setAtPath } from './json-tools.js';

/** The configuration store of one host. */
export class ConfigStore implements StackConfig {
  private document: JsonRecord;
  private readonly validators = new Set<ConfigValidator>();
  private readonly viewList = new Set<ConfigView>();
  private readonly listeners = new Set<(change: ConfigChange) => void>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly slices: Record<string, JsonRecord> = {};
  private originValue: 'file' | 'demo';

  constructor(
    private readonly source: ConfigSource,
    initial: JsonRecord,
  ) {
    this.document = cloneJson(initial);
    this.originValue = source.origin;
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

  update(
    mutate: (draft: JsonRecord) => JsonRecord | void,
    options: ConfigUpdateOptions = {},
  ): Promise<JsonRecord> {
    // Updates run one at a time so a persist never interleaves with another change.
    const run = this.queue.then(() => this.apply(mutate, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async save(): Promise<void> {
    await this.update(() => undefined, { persist: true });
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

  private async apply(
    mutate: (draft: JsonRecord) => JsonRecord | void,
    options: ConfigUpdateOptions,
  ): Promise<JsonRecord> {
    const draft = cloneJson(this.document);
    const returned = mutate(draft);
    const candidate = returned === undefined ? draft : returned;
    if (!isJsonRecord(candidate)) throw new Error('the configuration must stay one JSON object');
    this.validate(candidate);
    if (options.persist !== undefined && options.persist !== false) {
      await this.persist(candidate, options.persist === true ? null : options.persist);
    }
    const previous = this.document;
    this.document = candidate;
    const change: ConfigChange = {
      previous,
      current: candidate,
      reason: options.reason,
      by: options.by,
    };
    for (const listener of this.listeners) listener(change);
    return cloneJson(candidate);
  }

  private async persist(candidate: JsonRecord, subtree: readonly string[] | null): Promise<void> {
    let toWrite: JsonRecord = candidate;
    if (subtree !== null) {
      // Merge only this subtree into the file as it is on disk: other in-memory changes stay unsaved.
      const onDisk = await this.readFileDocument();
      toWrite = onDisk ?? cloneJson(candidate);
      setAtPath(toWrite, subtree, cloneJson(getAtPath(candidate, subtree)));
    }
    await writeFileAtomic(this.source.writePath, formatJsonDocument(toWrite));
    this.originValue = 'file';
  }

  private async readFileDocument(): Promise<JsonRecord | null> {
    if (this.originValue === 'demo') return null;
    try {
      const parsed: unknown = JSON.parse(await readFile(this.source.writePath, 'utf8'));
      return isJsonRecord(parsed) ? parsed : null;
    } catch {
      return null;
    }
  }
}
