/**
 * A histogram family of the host's exposition: cumulative buckets, sum and count per label set,
 * its text kept until the next observation.
 */
import type { RenderableFamily } from './exposition-families.js';
import { checkLabelNames, formatValue, innerLabelText, labelKey } from './exposition-text.js';

type LabelValues = Readonly<Record<string, string | number>>;

interface HistogramSeries {
  /** `name_bucket{labels,le="bound"} ` per bucket, `+Inf` last. */
  readonly bucketPrefixes: readonly string[];
  readonly sumPrefix: string;
  readonly countPrefix: string;
  /** Observations per bucket (not cumulative; summed when rendered). */
  readonly counts: number[];
  sum: number;
  count: number;
  /** Rendered: observed at least once, or the one series of a family without labels. */
  exposed: boolean;
}

/** A histogram series bound to its label set: observing it skips the label lookup. */
export class BoundHistogram {
  constructor(
    private readonly family: HistogramFamily,
    private readonly series: HistogramSeries,
  ) {}

  observe(value: number): void {
    this.family.record(this.series, value);
  }
}

/** Latency-style buckets when a histogram declares none (seconds). */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A histogram: cumulative buckets, sum and count per label set. */
export class HistogramFamily implements RenderableFamily {
  readonly type = 'histogram';
  private readonly series = new Map<string, HistogramSeries>();
  private readonly bounds: readonly number[];
  /** The text of the last render, kept until an observation. */
  private text = '';
  private dirty = true;

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
    this.record(this.at(labels), value);
  }

  /** The series of `labels`, bound; not rendered until its first observation. */
  bind(labels: LabelValues): BoundHistogram {
    return new BoundHistogram(this, this.at(labels, false));
  }

  record(series: HistogramSeries, value: number): void {
    series.exposed = true;
    let index = 0;
    while (index < this.bounds.length && value > (this.bounds[index] ?? Infinity)) index += 1;
    series.counts[index] = (series.counts[index] ?? 0) + 1;
    series.sum += value;
    series.count += 1;
    this.dirty = true;
  }

  renderSamples(): string {
    // A few series per route and status: short enough for one turn.
    if (!this.dirty) return this.text;
    let text = '';
    for (const series of this.series.values()) {
      if (!series.exposed) continue;
      let cumulative = 0;
      series.bucketPrefixes.forEach((prefix, index) => {
        cumulative += series.counts[index] ?? 0;
        text += `${prefix}${cumulative}\n`;
      });
      text += `${series.sumPrefix}${formatValue(series.sum)}\n`;
      text += `${series.countPrefix}${series.count}\n`;
    }
    this.text = text;
    this.dirty = false;
    return text;
  }

  private at(labels: LabelValues, exposed = true): HistogramSeries {
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
        exposed,
      };
      this.series.set(key, series);
      this.dirty = true;
    } else if (exposed) series.exposed = true;
    return series;
  }
}
