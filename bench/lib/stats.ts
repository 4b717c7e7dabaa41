/** Summary statistics of benchmark samples: nearest-rank percentiles, medians, ratios. */

/** The nearest-rank percentile `p` (0–100) of `values`; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/** The median: the middle value, or the mean of the two middle values of an even count. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Round to `digits` decimals (benchmark output stays readable). */
export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** p50/p99/max/count of latency samples (ms). */
export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** Summarize latency samples, rounded to 0.01. */
export function summarize(values: readonly number[]): LatencySummary {
  return {
    count: values.length,
    p50: round(percentile(values, 50)),
    p99: round(percentile(values, 99)),
    max: round(values.length === 0 ? Number.NaN : Math.max(...values)),
  };
}

/** `a / b` rounded to 0.01; NaN when `b` is zero or either is not finite. */
export function ratio(a: number, b: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return Number.NaN;
  return round(a / b);
}
