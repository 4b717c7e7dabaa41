/**
 * The host's Prometheus registry: families of core and of every plugin, rendered in the
 * Prometheus text format 0.0.4 or OpenMetrics 1.0. Plugins reach it through a scoped facade
 * (`PluginExposition`) that only creates and updates the families it declared.
 *
 * It writes the text itself rather than through prom-client: with 1,000 processes prom-client
 * hashed every label set on each update and formatted and escaped every label again at each
 * scrape (44 ms a scrape for the same series in a bare prom-client registry); here a series keeps
 * its rendered label set and a scrape formats only the numbers. `promtool check metrics` and a
 * real Prometheus scraping OpenMetrics check the output in the tests.
 */
import type {
  ExpositionCounter,
  ExpositionFamilyDefinition,
  ExpositionGauge,
  ExpositionHistogram,
  ExpositionHistogramDefinition,
  ExpositionText,
} from '../../sdk/exposition.js';
import { negotiateExposition } from '../../sdk/exposition.js';
import { TurnBudget } from '../../sdk/turn-budget.js';
import type { Logger } from '../../sdk/logger.js';
import { ScalarFamily, type RenderableFamily } from './exposition-families.js';
import { HistogramFamily } from './histogram-family.js';
import {
  FAMILY_NAME,
  OPENMETRICS_CONTENT_TYPE,
  PROMETHEUS_CONTENT_TYPE,
  escapeHelp,
} from './exposition-text.js';

/** A scrape waits at most this long for the refresh hooks. */
const HOOK_BUDGET_MS = 2_000;
type ScrapeHook = (signal: AbortSignal) => Promise<void> | void;
type Labels = Readonly<Record<string, string | number>>;

const NO_LABELS: Labels = {};

/** Every family of one host and the hooks that refresh them. */
export class ExpositionRegistry {
  private readonly families: RenderableFamily[] = [];
  private readonly owners = new Map<string, string>();
  private readonly hooks: Array<{ readonly owner: string; readonly hook: ScrapeHook }> = [];
  private rendering: Promise<unknown> = Promise.resolve();
  private readonly textHeaders = new Map<RenderableFamily, string>();
  private readonly openMetricsHeaders = new Map<RenderableFamily, string>();

  constructor(private readonly logger: Logger) {}

  counter<L extends string>(
    owner: string,
    definition: ExpositionFamilyDefinition<L>,
  ): ExpositionCounter<L> {
    this.claim(owner, definition.name, true);
    const counter = this.add(
      new ScalarFamily(definition.name, definition.help, 'counter', labelNamesOf(definition)),
    );
    return {
      inc: (labels, value) => counter.add(labels ?? NO_LABELS, value ?? 1),
      setTotal: (labels, total) => counter.set(labels, total),
      reset: () => counter.reset(),
      labels: (labels) => counter.bind(labels),
    };
  }

  gauge<L extends string>(
    owner: string,
    definition: ExpositionFamilyDefinition<L>,
  ): ExpositionGauge<L> {
    this.claim(owner, definition.name, false);
    const gauge = this.add(
      new ScalarFamily(definition.name, definition.help, 'gauge', labelNamesOf(definition)),
    );
    return {
      set: (labels, value) => gauge.set(labels, value),
      reset: () => gauge.reset(),
      labels: (labels) => gauge.bind(labels),
    };
  }

  histogram<L extends string>(
    owner: string,
    definition: ExpositionHistogramDefinition<L>,
  ): ExpositionHistogram<L> {
    this.claim(owner, definition.name, false);
    const histogram = this.add(
      new HistogramFamily(
        definition.name,
        definition.help,
        labelNamesOf(definition),
        definition.buckets,
      ),
    );
    return {
      observe: (labels, value) => histogram.observe(labels, value),
      labels: (labels) => histogram.bind(labels),
    };
  }

  beforeScrape(owner: string, hook: ScrapeHook): void {
    this.hooks.push({ owner, hook });
  }

  /** Refresh, then render in the format `accept` prefers (Prometheus text by default). */
  render(accept: string | undefined): Promise<ExpositionText> {
    // One render at a time: the hooks of one scrape reset and refill families.
    const next = this.rendering.then(() => this.renderNow(accept));
    this.rendering = next.catch(() => undefined);
    return next;
  }

  /**
   * A thousand processes are some 14,000 lines, and a scrape must not hold up requests, streams
   * or the supervisor's timers for more than a few milliseconds: the render lets other work run
   * whenever it used its turn, between families and within a large one.
   */
  private async renderNow(accept: string | undefined): Promise<ExpositionText> {
    await this.runHooks();
    const openMetrics = negotiateExposition(accept) === 'openmetrics';
    const out: string[] = [];
    const turn = new TurnBudget();
    for (const family of this.families) {
      if (turn.spent()) await turn.next();
      out.push(this.header(family, openMetrics), await family.renderSamples(turn));
    }
    if (openMetrics) out.push('# EOF\n');
    return new RenderedText(openMetrics ? OPENMETRICS_CONTENT_TYPE : PROMETHEUS_CONTENT_TYPE, out);
  }

  /** `# HELP` and `# TYPE` of `family`, written once per format. */
  private header(family: RenderableFamily, openMetrics: boolean): string {
    const headers = openMetrics ? this.openMetricsHeaders : this.textHeaders;
    let header = headers.get(family);
    if (header === undefined) {
      // OpenMetrics names a counter family without `_total`; its samples keep the suffix.
      const name =
        openMetrics && family.type === 'counter'
          ? family.name.slice(0, -'_total'.length)
          : family.name;
      header = `# HELP ${name} ${escapeHelp(family.help, openMetrics)}\n# TYPE ${name} ${family.type}\n`;
      headers.set(family, header);
    }
    return header;
  }

  private async runHooks(): Promise<void> {
    if (this.hooks.length === 0) return;
    // A timer cleared when the hooks are done, not AbortSignal.timeout: that one's timer runs
    // out after every scrape and builds an abort reason nobody reads.
    const budget = new AbortController();
    const timer = setTimeout(() => budget.abort(), HOOK_BUDGET_MS);
    const signal = budget.signal;
    try {
      await this.runHooksWith(signal);
    } finally {
      clearTimeout(timer);
    }
  }

  private async runHooksWith(signal: AbortSignal): Promise<void> {
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

  private add<F extends RenderableFamily>(family: F): F {
    this.families.push(family);
    return family;
  }

  /** Names follow the conventions and belong to one owner. */
  private claim(owner: string, name: string, counter: boolean): void {
    if (!FAMILY_NAME.test(name))
      throw new Error(`exposition family '${name}' of '${owner}' must match ${FAMILY_NAME.source}`);
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

/** A render's parts, joined only for a reader of `body`. */
class RenderedText implements ExpositionText {
  constructor(
    readonly contentType: string,
    readonly parts: readonly string[],
  ) {}

  get body(): string {
    return this.parts.join('');
  }
}

function labelNamesOf<L extends string>(definition: ExpositionFamilyDefinition<L>): string[] {
  return [...(definition.labelNames ?? [])];
}
