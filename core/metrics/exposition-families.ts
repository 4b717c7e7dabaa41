/**
 * The families of the host's exposition: counters, gauges and histograms holding their series in
 * a map keyed by label values. Each series keeps its rendered `name{labels} ` prefix from the
 * moment it appears, and a reset only marks series stale (the next reset drops those not set
 * again), so a process refreshed at every scrape is formatted once, not once per scrape.
 */
import { checkLabelNames, formatValue, innerLabelText, labelKey } from './exposition-text.js';

type LabelValues = Readonly<Record<string, string | number>>;

/** One family as the renderer sees it. */
export interface RenderableFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  /** Append the family's sample lines (each ending in a line feed) to `out`. */
  renderSamples(out: string[]): void;
}

interface ScalarSeries {
  /** `name{labels} ` */
  readonly prefix: string;
  value: number;
  /** The reset generation the series was last written in. */
  generation: number;
}

/** A counter or gauge: one number per label set. */
export class ScalarFamily implements RenderableFamily {
  private readonly series = new Map<string, ScalarSeries>();
  private generation = 0;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge',
    private readonly labelNames: readonly string[],
  ) {
    checkLabelNames(name, labelNames);
    // A family without labels has its one series from the start, at 0.
    if (labelNames.length === 0) this.at({}).value = 0;
  }

  set(labels: LabelValues, value: number): void {
    this.at(labels).value = value;
  }

  add(labels: LabelValues, value: number): void {
    if (value < 0) throw new Error(`counter '${this.name}' cannot decrease (inc by ${value})`);
    this.at(labels).value += value;
  }

  /** Forget every label set; a family without labels goes back to 0. */
  reset(): void {
    for (const [key, series] of this.series)
      if (series.generation !== this.generation) this.series.delete(key);
    this.generation += 1;
    if (this.labelNames.length === 0) this.at({}).value = 0;
  }

  renderSamples(out: string[]): void {
    for (const series of this.series.values())
      if (series.generation === this.generation)
        out.push(`${series.prefix}${formatValue(series.value)}\n`);
  }

  /** The series of `labels`, made current (a stale one restarts from 0). */
  private at(labels: LabelValues): ScalarSeries {
    const key = labelKey(this.labelNames, labels);
    let series = this.series.get(key);
    if (series === undefined) {
      const inner = innerLabelText(this.labelNames, labels);
      series = {
        prefix: inner === '' ? `${this.name} ` : `${this.name}{${inner}} `,
        value: 0,
        generation: this.generation,
      };
      this.series.set(key, series);
    } else if (series.generation !== this.generation) {
      series.generation = this.generation;
      series.value = 0;
    }
    return series;
  }
}

interface HistogramSeries {
  /** `name_bucket{labels,le="bound"} ` per bucket, `+Inf` last. */
  readonly bucketPrefixes: readonly string[];
  readonly sumPrefix: string;
  readonly countPrefix: string;
  /** Observations per bucket (not cumulative; summed when rendered). */
  readonly counts: number[];
  sum: number;
  count: number;
}

/** Latency-style buckets when a histogram declares none (seconds). */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A histogram: cumulative buckets, sum and count per label set. */
export class HistogramFamily implements RenderableFamily {
  readonly type = 'histogram';
  private readonly series = new Map<string, HistogramSeries>();
  private readonly bounds: readonly number[];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    buckets: readonly number[] | undefined,
  ) {
    checkLabelNames(name, labelNames);
    if (labelNames.includes('le')) throw new Error(`histogram '${name}' cannot use label 'le'`);
    this.bounds = [...new Set(buckets ?? DEFAULT_BUCKETS)].sort((a, b) => a - b);
    if (labelNames.length === 0) this.at({});
  }

  observe(labels: LabelValues, value: number): void {
    const series = this.at(labels);
    let index = 0;
    while (index < this.bounds.length && value > (this.bounds[index] ?? Infinity)) index += 1;
    series.counts[index] = (series.counts[index] ?? 0) + 1;
    series.sum += value;
    series.count += 1;
  }

  renderSamples(out: string[]): void {
    for (const series of this.series.values()) {
      let cumulative = 0;
      series.bucketPrefixes.forEach((prefix, index) => {
        cumulative += series.counts[index] ?? 0;
        out.push(`${prefix}${cumulative}\n`);
      });
      out.push(`${series.sumPrefix}${formatValue(series.sum)}\n`);
      out.push(`${series.countPrefix}${series.count}\n`);
    }
  }

  private at(labels: LabelValues): HistogramSeries {
    const key = labelKey(this.labelNames, labels);
    let series = this.series.get(key);
    if (series === undefined) {
      const inner = innerLabelText(this.labelNames, labels);
      const withLe = inner === '' ? '' : `${inner},`;
      const plain = inner === '' ? ' ' : `{${inner}} `;
      series = {
        bucketPrefixes: [...this.bounds.map(formatValue), '+Inf'].map(
          (bound) => `${this.name}_bucket{${withLe}le="${bound}"} `,
        ),
        sumPrefix: `${this.name}_sum${plain}`,
        countPrefix: `${this.name}_count${plain}`,
        counts: new Array<number>(this.bounds.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, series);
    }
    return series;
  }
}
