/** Metrics collectors: core runs them on shared timers and keeps the latest snapshot. */

/** One collector's result: a JSON object of numbers, strings or nested objects. */
export type MetricsSample = Readonly<Record<string, unknown>>;

/** A collector a plugin declares with `ctx.metrics(...)`. */
export interface MetricsCollectorDefinition {
  /** Key of this collector's sample in the snapshot (`system`, `processes`). */
  readonly name: string;
  /**
   * Collection interval; collectors with equal intervals share one timer. Never faster than
   * consumers ask for; without one, the collector follows the consumers' pace (2000 ms when
   * they name none).
   */
  readonly intervalMs?: number;
  /** Collect one sample. Aborted when the tick overruns or the host stops. */
  collect(signal: AbortSignal): Promise<MetricsSample> | MetricsSample;
}

/** The shared snapshot: the latest sample of every collector. */
export interface MetricsSnapshot {
  /** ISO 8601 UTC time of the newest sample. */
  readonly timestamp: string;
  /** Latest sample per collector name. */
  readonly collectors: Readonly<Record<string, MetricsSample>>;
}
