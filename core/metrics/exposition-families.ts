/**
 * The counter and gauge families of the host's exposition (histograms have their own file),
 * holding their series in a map keyed by label values. Each series keeps its rendered
 * `name{labels} ` prefix from the moment it appears and its whole sample line while its value
 * stays the same, and a family keeps its rendered text while none of its series changed, so a
 * scrape formats only what moved. A reset only marks series stale (the next reset drops those not
 * set again).
 */
import type { TurnBudget } from '../../sdk/turn-budget.js';
import { checkLabelNames, formatValue, innerLabelText, labelKey } from './exposition-text.js';

type LabelValues = Readonly<Record<string, string | number>>;

/** One family as the renderer sees it. */
export interface RenderableFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  /** The family's sample lines, each ending in a line feed; a long render yields to `turn`. */
  renderSamples(turn: TurnBudget): string | Promise<string>;
}

interface ScalarSeries {
  readonly key: string;
  /** `name{labels} ` */
  readonly prefix: string;
  value: number;
  /** The reset generation the series was last written in. */
  generation: number;
  /** Dropped from the family by a reset; a bound series brings it back. */
  dropped: boolean;
  /** The sample line of `lineValue`. */
  line: string;
  lineValue: number;
  /** The render that last showed it. */
  shownIn: number;
}

/**
 * A series bound to its label set (`labels()` in the sdk): a class, not closures, so the calls
 * of a plugin refreshing thousands of series stay monomorphic.
 */
export class BoundScalar {
  constructor(
    private readonly family: ScalarFamily,
    private readonly labels: LabelValues,
    private series: ScalarSeries,
  ) {}

  set(value: number): void {
    this.family.write(this.current(), value, false);
  }

  add(value: number): void {
    this.family.write(this.current(), this.family.checkedIncrement(value), true);
  }

  /** The counter's `inc` of the sdk. */
  inc(value = 1): void {
    this.add(value);
  }

  /** The counter's `setTotal` of the sdk. */
  setTotal(total: number): void {
    this.set(total);
  }

  private current(): ScalarSeries {
    // A reset dropped it: the family's series of the same labels now (created again if need be).
    if (this.series.dropped) this.series = this.family.seriesOf(this.labels);
    return this.series;
  }
}

/** A counter or gauge: one number per label set. */
export class ScalarFamily implements RenderableFamily {
  private readonly series = new Map<string, ScalarSeries>();
  private generation = 0;
  /** Series written in the current generation (the exposed ones). */
  private currentCount = 0;
  /** Renders so far, and what the last one wrote and how many series it showed. */
  private renders = 0;
  private text = '';
  private shown = 0;
  /** A series changed value, appeared or came back since the last render. */
  private dirty = true;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'gauge',
    private readonly labelNames: readonly string[],
  ) {
    checkLabelNames(name, labelNames);
    // A family without labels has its one series from the start, at 0.
    if (labelNames.length === 0) this.write(this.at({}), 0, false);
  }

  set(labels: LabelValues, value: number): void {
    this.write(this.at(labels), value, false);
  }

  add(labels: LabelValues, value: number): void {
    this.write(this.at(labels), this.checkedIncrement(value), true);
  }

  /** The series of `labels`, bound: its updates skip the lookup. */
  bind(labels: LabelValues): BoundScalar {
    // Not exposed until written: a bound series of a process that never exited has no exit code.
    return new BoundScalar(this, labels, this.at(labels, false));
  }

  /** The current series of `labels` (for a bound series a reset dropped). */
  seriesOf(labels: LabelValues): ScalarSeries {
    return this.at(labels);
  }

  /** Forget every label set; a family without labels goes back to 0. */
  reset(): void {
    // Each scrape resets the supervisor's families of thousands of series, all of them usually
    // set again since the last reset: nothing to drop then, and no need to walk them.
    if (this.currentCount < this.series.size)
      for (const series of this.series.values())
        if (series.generation !== this.generation) {
          series.dropped = true;
          this.series.delete(series.key);
        }
    this.generation += 1;
    this.currentCount = 0;
    if (this.labelNames.length === 0) this.write(this.at({}), 0, false);
  }

  renderSamples(turn: TurnBudget): string | Promise<string> {
    const count = this.currentCount;
    if (!this.dirty && count === this.shown) return this.text;
    return this.renderChanged(turn, count);
  }

  /**
   * The lines again, over several turns of the event loop when long. A series written meanwhile
   * marks the family dirty again, so the next render does not serve a text that missed it.
   */
  private async renderChanged(turn: TurnBudget, count: number): Promise<string> {
    this.renders += 1;
    this.dirty = false;
    // Joined, not concatenated: the kept text is then one flat string, which the scrape's body
    // copies at once instead of walking a chain of thousands of pieces every time.
    const lines: string[] = [];
    for (const series of this.series.values()) {
      if ((lines.length & 63) === 63 && turn.spent()) await turn.next();
      if (series.generation !== this.generation) continue;
      if (series.line === '' || !Object.is(series.value, series.lineValue)) {
        series.line = `${series.prefix}${formatValue(series.value)}\n`;
        series.lineValue = series.value;
      }
      series.shownIn = this.renders;
      lines.push(series.line);
    }
    const text = lines.join('');
    this.text = text;
    this.shown = count;
    return text;
  }

  checkedIncrement(value: number): number {
    if (value < 0) throw new Error(`counter '${this.name}' cannot decrease (inc by ${value})`);
    return value;
  }

  /**
   * Set `series` to `value` (or add it), making the series current: a stale series counts from
   * 0. The family's text is rendered again when a value changed or a series was not in it.
   */
  write(series: ScalarSeries, value: number, increment: boolean): void {
    const stale = series.generation !== this.generation;
    if (stale) this.currentCount += 1;
    series.generation = this.generation;
    const next = increment ? (stale ? 0 : series.value) + value : value;
    if (!Object.is(series.value, next) || series.shownIn !== this.renders) this.dirty = true;
    series.value = next;
  }

  /** The series of `labels`, created at 0 when new (exposed unless `current` is false). */
  private at(labels: LabelValues, current = true): ScalarSeries {
    const key = labelKey(this.labelNames, labels);
    const series = this.series.get(key);
    if (series !== undefined) return series;
    const inner = innerLabelText(this.labelNames, labels);
    const created: ScalarSeries = {
      key,
      prefix: inner === '' ? `${this.name} ` : `${this.name}{${inner}} `,
      value: 0,
      generation: current ? this.generation : -1,
      dropped: false,
      line: '',
      lineValue: 0,
      shownIn: -1,
    };
    this.series.set(key, created);
    if (current) this.currentCount += 1;
    this.dirty = true;
    return created;
  }
}
