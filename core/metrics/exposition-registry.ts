/**
 * The host's Prometheus registry (prom-client): families of core and of every plugin, rendered
 * in the Prometheus text format 0.0.4 or OpenMetrics 1.0. Plugins reach it through a scoped
 * facade (`PluginExposition`) that only creates and updates the families it declared.
 */
import { Counter, Gauge, Histogram, Registry, type RegistryContentType } from 'prom-client';
import type {
  ExpositionCounter,
  ExpositionFamilyDefinition,
  ExpositionGauge,
  ExpositionHistogram,
  ExpositionHistogramDefinition,
  ExpositionText,
} from '../../sdk/exposition.js';
import { negotiateExposition } from '../../sdk/exposition.js';
import type { Logger } from '../../sdk/logger.js';

const NAME = /^stackd_[a-z][a-z0-9_]*$/;
/** A scrape waits at most this long for the refresh hooks. */
const HOOK_BUDGET_MS = 2_000;

type ScrapeHook = (signal: AbortSignal) => Promise<void> | void;
type Labels = Readonly<Record<string, string | number>>;

/** Every family of one host and the hooks that refresh them. */
export class ExpositionRegistry {
  private readonly registry = new Registry<RegistryContentType>();
  private readonly owners = new Map<string, string>();
  private readonly hooks: Array<{ readonly owner: string; readonly hook: ScrapeHook }> = [];
  private rendering: Promise<unknown> = Promise.resolve();

  constructor(private readonly logger: Logger) {}

  counter<L extends string>(
    owner: string,
    definition: ExpositionFamilyDefinition<L>,
  ): ExpositionCounter<L> {
    this.claim(owner, definition.name, true);
    const counter = new Counter<string>({ ...this.base(definition) });
    return {
      inc: (labels, value) => counter.inc((labels ?? {}) as Labels, value ?? 1),
      setTotal: (labels, total) => {
        counter.remove(labels as Labels);
        counter.inc(labels as Labels, total);
      },
      reset: () => counter.reset(),
    };
  }

  gauge<L extends string>(
    owner: string,
    definition: ExpositionFamilyDefinition<L>,
  ): ExpositionGauge<L> {
    this.claim(owner, definition.name, false);
    const gauge = new Gauge<string>({ ...this.base(definition) });
    return {
      set: (labels, value) => gauge.set(labels as Labels, value),
      reset: () => gauge.reset(),
    };
  }

  histogram<L extends string>(
    owner: string,
    definition: ExpositionHistogramDefinition<L>,
  ): ExpositionHistogram<L> {
    this.claim(owner, definition.name, false);
    const histogram = new Histogram<string>({
      ...this.base(definition),
      ...(definition.buckets === undefined ? {} : { buckets: [...definition.buckets] }),
    });
    return { observe: (labels, value) => histogram.observe(labels as Labels, value) };
  }

  beforeScrape(owner: string, hook: ScrapeHook): void {
    this.hooks.push({ owner, hook });
  }

  /** Refresh, then render in the format `accept` prefers (Prometheus text by default). */
  render(accept: string | undefined): Promise<ExpositionText> {
    // One render at a time: OpenMetrics output renames counters for its duration.
    const next = this.rendering.then(() => this.renderNow(accept));
    this.rendering = next.catch(() => undefined);
    return next;
  }

  private async renderNow(accept: string | undefined): Promise<ExpositionText> {
    await this.runHooks();
    const openMetrics = negotiateExposition(accept) === 'openmetrics';
    if (!openMetrics) {
      this.registry.setContentType(Registry.PROMETHEUS_CONTENT_TYPE);
      return { contentType: this.registry.contentType, body: await this.registry.metrics() };
    }
    // prom-client strips `_total` from counter names for OpenMetrics (the format adds it per
    // sample) and keeps the stripped name: put the names back for the next Prometheus render.
    const names = this.registry.getMetricsAsArray().map((metric) => [metric, metric.name] as const);
    this.registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    try {
      return { contentType: this.registry.contentType, body: await this.registry.metrics() };
    } finally {
      for (const [metric, name] of names) (metric as { name: string }).name = name;
      this.registry.setContentType(Registry.PROMETHEUS_CONTENT_TYPE);
    }
  }

  private async runHooks(): Promise<void> {
    if (this.hooks.length === 0) return;
    const signal = AbortSignal.timeout(HOOK_BUDGET_MS);
    await Promise.all(
      this.hooks.map(async ({ owner, hook }) => {
        try {
          await hook(signal);
        } catch (error) {
          this.logger.warn(`exposition hook of '${owner}' failed`, {
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }),
    );
  }

  private base<L extends string>(definition: ExpositionFamilyDefinition<L>) {
    return {
      name: definition.name,
      help: definition.help,
      labelNames: [...(definition.labelNames ?? [])],
      registers: [this.registry],
    };
  }

  /** Names follow the conventions and belong to one owner. */
  private claim(owner: string, name: string, counter: boolean): void {
    if (!NAME.test(name))
      throw new Error(`exposition family '${name}' of '${owner}' must match ${NAME.source}`);
    if (counter !== name.endsWith('_total'))
      throw new Error(
        `exposition family '${name}' of '${owner}': counters and only counters end in _total`,
      );
    const holder = this.owners.get(name);
    if (holder !== undefined)
      throw new Error(`exposition family '${name}' is declared by both '${holder}' and '${owner}'`);
    this.owners.set(name, owner);
  }
}
