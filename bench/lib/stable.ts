/**
 * Figures that do not swing with the machine's load: the CPU time a server spends per operation,
 * read from /proc/<pid>/stat over a fixed number of operations and several rounds, and verdicts
 * that are only given when the rounds agree more closely than the figure's distance to its goal.
 */
import { cpuMs } from './proc-sample.js';
import { figure, type Figure, type Goal } from './report.js';
import { median, round } from './stats.js';

/** One measured series: a value per round. */
export interface Rounds {
  readonly median: number;
  /** (max − min) / median across rounds; 0 with one round. */
  readonly spread: number;
  readonly values: readonly number[];
}

/** Median and relative spread of per-round values. */
export function rounds(values: readonly number[]): Rounds {
  const middle = median(values);
  const spread =
    values.length < 2 || middle === 0
      ? 0
      : (Math.max(...values) - Math.min(...values)) / Math.abs(middle);
  return { median: middle, spread: round(spread, 3), values: values.map((v) => round(v, 4)) };
}

/**
 * CPU time of `pid` per operation (ms) and throughput (ops/s) over `count` operations run with
 * `concurrency` in flight, once per round. /proc counts in 10 ms ticks, so `count` should make a
 * round cost at least a few hundred ms of the server's CPU.
 */
export async function cpuPerOperation(
  pid: number,
  operation: () => Promise<void>,
  options: { count: number; concurrency: number; rounds: number },
): Promise<{ cpu_ms: Rounds; ops_per_sec: Rounds }> {
  const cpu: number[] = [];
  const rates: number[] = [];
  for (let index = 0; index < options.rounds; index += 1) {
    let left = options.count;
    const worker = async (): Promise<void> => {
      while (left > 0) {
        left -= 1;
        await operation();
      }
    };
    const before = cpuMs(pid);
    const start = performance.now();
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    const seconds = (performance.now() - start) / 1000;
    cpu.push((cpuMs(pid) - before) / options.count);
    rates.push(options.count / seconds);
  }
  return { cpu_ms: rounds(cpu), ops_per_sec: rounds(rates) };
}

/**
 * A figure judged against `goal` only when its rounds agree: the relative spread must be below
 * the relative margin between the median and the limit. Otherwise it is marked noise-bound and
 * neither passes nor fails.
 */
export function stableFigure(
  area: string,
  name: string,
  series: Rounds,
  unit: string,
  goal: Goal,
): Figure {
  const value = round(series.median, 4);
  const margin = Math.abs(goal.limit - value) / Math.abs(goal.limit);
  const note = `spread ${round(series.spread * 100, 1)} % over ${series.values.length} rounds, margin ${round(margin * 100, 1)} %`;
  if (!Number.isFinite(value) || series.spread >= margin)
    return { ...figure(area, name, value, unit, { note }), goal, noiseBound: true };
  return figure(area, name, value, unit, { goal, note });
}
