/** Downsampling: gauges averaged per time bucket, counters turned into per-bucket rates. */
import type { SeriesPoint } from '../../../sdk/contracts/metrics-feed.js';
import { counterIncrease } from '../rates.js';

/** A value at a time (epoch seconds). */
export interface TimedValue {
  readonly at: number;
  readonly value: number | null;
}

/** Most buckets one series answer holds; wider ranges get wider buckets. */
export const MAX_BUCKETS = 1000;

/** The bucket width: the requested one, raised so the range fits in {@link MAX_BUCKETS}. */
export function bucketWidth(rangeSec: number, requested: number | undefined): number {
  const minimum = Math.max(1, Math.ceil(rangeSec / MAX_BUCKETS));
  return Math.max(requested ?? minimum, minimum);
}

interface Accumulator {
  start: number;
  sum: number;
  seconds: number;
  min: number;
  max: number;
  samples: number;
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

function accumulate(
  buckets: Map<number, Accumulator>,
  start: number,
  amount: number,
  seconds: number,
  point: number,
): void {
  const bucket = buckets.get(start);
  if (bucket === undefined) {
    buckets.set(start, { start, sum: amount, seconds, min: point, max: point, samples: 1 });
    return;
  }
  bucket.sum += amount;
  bucket.seconds += seconds;
  bucket.min = Math.min(bucket.min, point);
  bucket.max = Math.max(bucket.max, point);
  bucket.samples += 1;
}

function points(
  buckets: Map<number, Accumulator>,
  value: (bucket: Accumulator) => number,
): SeriesPoint[] {
  return [...buckets.values()]
    .sort((a, b) => a.start - b.start)
    .map((bucket) => ({
      timestamp: bucket.start,
      value: round(value(bucket)),
      min: round(bucket.min),
      max: round(bucket.max),
      samples: bucket.samples,
    }));
}

/** Average, min and max of a gauge per bucket (values sorted by time; nulls skipped). */
export function bucketGauge(values: readonly TimedValue[], bucketSec: number): SeriesPoint[] {
  const buckets = new Map<number, Accumulator>();
  for (const { at, value } of values) {
    if (value === null) continue;
    accumulate(buckets, Math.floor(at / bucketSec) * bucketSec, value, 0, value);
  }
  return points(buckets, (bucket) => bucket.sum / bucket.samples);
}

/**
 * Per-second rate of a counter per bucket. Each pair of consecutive readings contributes its
 * increase (a drop counts as a reset: see `counterIncrease`) to the bucket of the later reading;
 * the bucket's value is total increase / total elapsed time, min and max are the pair rates.
 */
export function bucketRate(values: readonly TimedValue[], bucketSec: number): SeriesPoint[] {
  const buckets = new Map<number, Accumulator>();
  let previous: { at: number; value: number } | undefined;
  for (const { at, value } of values) {
    if (value === null) continue;
    if (previous !== undefined && at > previous.at) {
      const increase = counterIncrease(previous.value, value);
      const seconds = at - previous.at;
      accumulate(
        buckets,
        Math.floor(at / bucketSec) * bucketSec,
        increase,
        seconds,
        increase / seconds,
      );
    }
    previous = { at, value };
  }
  return points(buckets, (bucket) => bucket.sum / bucket.seconds);
}
