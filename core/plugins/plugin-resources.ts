/**
 * What a plugin subscribes to through its context, released when it stops: configuration
 * listeners and validators, metrics subscriptions. A plugin that forgets an unsubscribe cannot
 * leak listeners into a host that restarts it, or into the next plugin's test.
 */
import type {
  ConfigChange,
  ConfigUpdateOptions,
  ConfigVersionSummary,
  ConfigValidator,
  ConfigView,
  JsonRecord,
} from '../../sdk/config.js';
import { isJsonRecord, type StackConfig } from '../../sdk/config.js';
import type { MetricsReader } from '../../sdk/context.js';
import { ForbiddenError } from '../../sdk/errors.js';
import type { MetricsSnapshot } from '../../sdk/metrics.js';

/** Unsubscribe functions collected for one plugin. */
export class Subscriptions {
  private readonly releases = new Set<() => void>();

  /** Keep `release` until the plugin stops; the returned function releases it early. */
  keep(release: () => void): () => void {
    const once = (): void => {
      if (this.releases.delete(once)) release();
    };
    this.releases.add(once);
    return once;
  }

  /** How many are still held (tests watch this for growth). */
  get size(): number {
    return this.releases.size;
  }

  releaseAll(): void {
    for (const release of [...this.releases]) release();
  }
}

/** Who may change which part of the document. */
export type ConfigAccess = 'own-slice' | 'document';

/**
 * The configuration document as one plugin sees it. Reads are the whole document; a plugin
 * with `own-slice` access (the default) may only change `stackd.<its name>`: an update that
 * touches anything else is refused before it is applied. Plugins whose job is editing the
 * document (the config routes, onboarding) declare `configAccess: 'document'`.
 */
export class PluginStack implements StackConfig {
  constructor(
    private readonly store: StackConfig,
    private readonly plugin: string,
    private readonly access: ConfigAccess,
    private readonly subscriptions: Subscriptions,
  ) {}

  get filePath(): string {
    return this.store.filePath;
  }

  get origin(): 'file' | 'demo' {
    return this.store.origin;
  }

  read(): JsonRecord {
    return this.store.read();
  }

  sliceSchemas(): Readonly<Record<string, JsonRecord>> {
    return this.store.sliceSchemas();
  }

  update(
    mutate: (draft: JsonRecord) => JsonRecord | void,
    options?: ConfigUpdateOptions,
  ): Promise<JsonRecord> {
    return this.store.update(this.guarded(mutate), { actor: this.plugin, ...options });
  }

  get generation(): number {
    return this.store.generation;
  }

  preview(mutate: (draft: JsonRecord) => JsonRecord | void): Promise<JsonRecord> {
    return this.store.preview(this.guarded(mutate));
  }

  history(): Promise<ConfigVersionSummary[]> {
    return this.store.history();
  }

  versionDocument(version: number): Promise<JsonRecord | undefined> {
    return this.store.versionDocument(version);
  }

  private guarded(
    mutate: (draft: JsonRecord) => JsonRecord | void,
  ): (draft: JsonRecord) => JsonRecord | void {
    if (this.access === 'document') return mutate;
    return (draft) => {
      const before = outsideSlice(draft, this.plugin);
      const result = mutate(draft) ?? draft;
      if (outsideSlice(result, this.plugin) !== before)
        throw new ForbiddenError(
          'CONFIG_OUTSIDE_SLICE',
          `plugin '${this.plugin}' may only change stackd.${this.plugin} of the configuration`,
        );
      return result;
    };
  }

  save(): Promise<void> {
    return this.store.save();
  }

  addValidator(validator: ConfigValidator): () => void {
    return this.subscriptions.keep(this.store.addValidator(validator));
  }

  onChange(listener: (change: ConfigChange) => void): () => void {
    return this.subscriptions.keep(this.store.onChange(listener));
  }

  addView(view: ConfigView): () => void {
    return this.subscriptions.keep(this.store.addView(view));
  }

  views(): readonly ConfigView[] {
    return this.store.views();
  }
}

/** Everything of a document except `stackd.<plugin>`, as comparable text. */
function outsideSlice(document: JsonRecord, plugin: string): string {
  const host = document.stackd;
  const rest: JsonRecord = { ...document };
  if (isJsonRecord(host)) {
    const others: JsonRecord = { ...host };
    delete others[plugin];
    rest.stackd = others;
  }
  return JSON.stringify(rest);
}

/** The shared metrics snapshot, with subscriptions released at the plugin's stop. */
export class PluginMetricsReader implements MetricsReader {
  constructor(
    private readonly reader: MetricsReader,
    private readonly subscriptions: Subscriptions,
  ) {}

  latest(): MetricsSnapshot | null {
    return this.reader.latest();
  }

  subscribe(
    listener: (snapshot: MetricsSnapshot) => void,
    options?: { readonly everyMs?: number },
  ): () => void {
    return this.subscriptions.keep(this.reader.subscribe(listener, options));
  }
}
