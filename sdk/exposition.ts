/**
 * Prometheus exposition: series a plugin contributes to the host's scrape endpoint. Core owns the
 * registry and the text format; a plugin declares its families with these sdk types and never
 * sees the library behind them, nor another plugin's families.
 */
import { Type, type TSchema } from './schema.js';

/** Label values of one series; every declared label name must be given. */
export type ExpositionLabels<L extends string> = Readonly<Record<L, string | number>>;

/** What every family declares. */
export interface ExpositionFamilyDefinition<L extends string> {
  /**
   * Full series name with the `stackd_` prefix, in Prometheus conventions: base units
   * (`_seconds`, `_bytes`), counters ending in `_total`. Unique across the host.
   */
  readonly name: string;
  /** One line on what the series measures. */
  readonly help: string;
  /** Label names; keep their values bounded (names, templates, statuses; never raw paths). */
  readonly labelNames?: readonly L[];
}

/** A histogram's definition: its buckets' upper bounds in the family's unit. */
export interface ExpositionHistogramDefinition<
  L extends string,
> extends ExpositionFamilyDefinition<L> {
  readonly buckets?: readonly number[];
}

/** One series of a counter, bound to its label values by `labels()`. */
export interface ExpositionCounterSeries {
  /** Add `value` (default 1, never negative). */
  inc(value?: number): void;
  /** Publish a total the plugin counts itself (see {@link ExpositionCounter.setTotal}). */
  setTotal(total: number): void;
}

/** One series of a gauge, bound to its label values by `labels()`. */
export interface ExpositionGaugeSeries {
  set(value: number): void;
}

/** A monotonic counter. */
export interface ExpositionCounter<L extends string> {
  /** Add `value` (default 1, never negative). */
  inc(labels?: ExpositionLabels<L>, value?: number): void;
  /**
   * Publish a total the plugin counts itself (a restart count): must never go down for the same
   * labels, except when the thing it counts began again.
   */
  setTotal(labels: ExpositionLabels<L>, total: number): void;
  /** Forget every labelled series (before publishing the current set at a scrape). */
  reset(): void;
  /**
   * The series of `labels`, exposed once updated. Updating it skips looking the label set up: a
   * plugin that refreshes many series at every scrape keeps the bound series (per process, until
   * its configuration changes). Still valid after `reset()`: updating it again brings the series
   * back, from 0.
   */
  labels(labels: ExpositionLabels<L>): ExpositionCounterSeries;
}

/** A value that goes up and down. */
export interface ExpositionGauge<L extends string> {
  set(labels: ExpositionLabels<L>, value: number): void;
  /** Forget every labelled series (a process removed from the config stops being exposed). */
  reset(): void;
  /**
   * The series of `labels`, exposed once set; see {@link ExpositionCounter.labels}. Still valid
   * after `reset()`: setting it again brings the series back.
   */
  labels(labels: ExpositionLabels<L>): ExpositionGaugeSeries;
}

/** A distribution of observations. */
export interface ExpositionHistogram<L extends string> {
  observe(labels: ExpositionLabels<L>, value: number): void;
  /**
   * The series of `labels`, exposed once observed; observing it skips looking the label set up
   * (a series observed on every request keeps it).
   */
  labels(labels: ExpositionLabels<L>): ExpositionHistogramSeries;
}

/** One bound series of a histogram. */
export interface ExpositionHistogramSeries {
  observe(value: number): void;
}

/** A rendered exposition. */
export interface ExpositionText {
  readonly contentType: string;
  /**
   * The text in parts (a family each), to reply with as they are: a thousand processes make
   * some 800 KiB, and one string of that size costs V8 a fresh memory mapping at every scrape.
   */
  readonly parts: readonly string[];
  /** The whole text, joined when asked for. */
  readonly body: string;
}

/**
 * `ctx.exposition`: declare families during `register` (declaring later throws); update them
 * from anywhere. `beforeScrape` hooks refresh gauges right before each scrape.
 */
export interface Exposition {
  counter<L extends string = never>(
    definition: ExpositionFamilyDefinition<L>,
  ): ExpositionCounter<L>;
  gauge<L extends string = never>(definition: ExpositionFamilyDefinition<L>): ExpositionGauge<L>;
  histogram<L extends string = never>(
    definition: ExpositionHistogramDefinition<L>,
  ): ExpositionHistogram<L>;
  /** Run before every scrape (bounded in time; a failing hook is logged, the scrape goes on). */
  beforeScrape(hook: (signal: AbortSignal) => Promise<void> | void): void;
  /**
   * The whole host's exposition in the format an `Accept` header asks for (OpenMetrics when it
   * prefers `application/openmetrics-text`, else the Prometheus text format 0.0.4).
   */
  render(accept: string | undefined): Promise<ExpositionText>;
}

/** The media types the exposition is served as (Prometheus text 0.0.4, OpenMetrics 1.0). */
export const EXPOSITION_MEDIA_TYPES = [
  'text/plain; version=0.0.4',
  'application/openmetrics-text; version=1.0.0',
] as const;

/**
 * The exposition as a response schema: a string in either text format. A route that also answers
 * JSON lists it with `alsoAnswersExposition`, so the OpenAPI document names every media type.
 */
export const ExpositionBody = Type.String({
  'x-content-types': [...EXPOSITION_MEDIA_TYPES],
  description:
    'Prometheus text format 0.0.4 or OpenMetrics 1.0 (when the Accept header prefers `application/openmetrics-text`).',
});

/** `schema` (JSON) with the exposition's text formats listed next to it as other media types. */
export function alsoAnswersExposition<T extends TSchema>(schema: T): T {
  return { ...schema, 'x-alternative-contents': [ExpositionBody] };
}

/** The capability flag set when the host serves the exposition. */
export const PROMETHEUS_CAPABILITY = 'prometheus_metrics';

/** Path that always answers the text exposition (`/metrics` negotiates it with JSON). */
export const EXPOSITION_PATH = '/metrics/prometheus';

/**
 * Prefix of scrape tokens: a scrape token is recognised by its text alone, so core and the
 * authenticator can keep it to the exposition routes before any lookup.
 */
export const SCRAPE_TOKEN_PREFIX = 'stackd_scrape_';

/** The principal's scope for a scrape token: it may read the exposition and nothing else. */
export const EXPOSITION_SCOPE = 'exposition';

/**
 * Which text format an `Accept` header asks for, or null when it prefers something else (JSON)
 * or names no text format. Quality values are honoured; a tie with JSON goes to JSON, so HTTP
 * clients sending `application/json, text/plain, *\/*` (axios) keep getting the dashboard's JSON.
 */
export function negotiateExposition(
  accept: string | undefined,
): 'openmetrics' | 'prometheus' | null {
  if (accept === undefined || accept === '') return null;
  let openMetrics = 0;
  let text = 0;
  let json = 0;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const qParam = params.find((param) => param.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q)) continue;
    if (type === 'application/openmetrics-text') openMetrics = Math.max(openMetrics, q);
    else if (type === 'text/plain') text = Math.max(text, q);
    else if (type === 'application/json') json = Math.max(json, q);
  }
  const best = Math.max(openMetrics, text);
  if (best <= 0 || best <= json) return null;
  return openMetrics >= text ? 'openmetrics' : 'prometheus';
}
