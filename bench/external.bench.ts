/**
 * The graph and metrics benchmarks (written with their plugins) run as child processes; this
 * reads the JSON they print and turns the figures with goals into rows. Quick mode runs only
 * the metrics fan-out (its collection part takes ~30 s).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, runJsonChild } from './lib/children.js';
import { figure, type Figure } from './lib/report.js';
import { stableFigure, type Rounds } from './lib/stable.js';
import { round } from './lib/stats.js';

type Json = Record<string, unknown>;

/** `object.a.b.c` as a number (NaN when absent). */
function numberAt(object: unknown, ...path: string[]): number {
  let value: unknown = object;
  for (const key of path)
    value = typeof value === 'object' && value !== null ? (value as Json)[key] : undefined;
  return typeof value === 'number' ? value : Number.NaN;
}

async function child(name: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Json> {
  const script = join(BENCH_DIR, `${name}.bench.js`);
  if (!existsSync(script)) throw new Error(`${script} is missing`);
  return runJsonChild(script, env, timeoutMs);
}

/** Run bench/graph.bench.js. */
export async function graphBench(): Promise<{ figures: Figure[]; details: Json }> {
  const output = await child('graph', process.env, 120_000);
  const area = `Graph (${numberAt(output, 'processes')} processes)`;
  return {
    figures: [
      figure(
        area,
        'cold graph (derive + view) median',
        numberAt(output, 'derive_and_view_ms', 'median_ms'),
        'ms',
        {
          goal: { op: '<', limit: 20 },
        },
      ),
      figure(area, 'cold graph p95', numberAt(output, 'derive_and_view_ms', 'p95_ms'), 'ms'),
      figure(area, 'cached view median', numberAt(output, 'view_ms', 'median_ms'), 'ms'),
      figure(
        area,
        'startup plan (cold) median',
        numberAt(output, 'plan_startup_ms', 'median_ms'),
        'ms',
      ),
    ],
    details: output,
  };
}

/** Run bench/metrics.bench.js (fan-out only when `quick`). */
export async function metricsBench(quick: boolean): Promise<{ figures: Figure[]; details: Json }> {
  const env = quick ? { ...process.env, BENCH_METRICS_ONLY: 'fan-out' } : process.env;
  // Three interleaved fan-out rounds per server took 216 s at load ~20 (02:21 run), close to
  // the 240 s this allowed; the next run was killed by it.
  const output = await child('metrics', env, 480_000);
  const figures: Figure[] = [];
  if (output.collection !== null && output.collection !== undefined) {
    const area = `Metrics collection (real host, every plugin, ${numberAt(output, 'collection', 'processes')} processes)`;
    figures.push(
      // Judged on the gross figure: every CPU millisecond of the host in the window over the
      // ticks in it, an upper bound of a tick's cost. The net one (less the rate with no
      // client) subtracts two readings of a 10 ms clock and came out below zero in a run,
      // which a goal of "< 15 ms" would have called a pass.
      figure(
        area,
        'host CPU per tick (all host CPU in the window ÷ ticks)',
        numberAt(output, 'collection', 'tick_cpu_ms_gross'),
        'ms',
        { goal: { op: '<', limit: 15 } },
      ),
      figure(
        area,
        'the same, less the rate with no client',
        numberAt(output, 'collection', 'tick_cpu_ms'),
        'ms',
        { note: 'information: the difference of two 10 ms-clock readings' },
      ),
      figure(area, 'host CPU, no client', numberAt(output, 'collection', 'idle_cpu_percent'), '%'),
      figure(
        area,
        'host CPU, one /ws/metrics client (2 s ticks)',
        numberAt(output, 'collection', 'streaming_cpu_percent'),
        '%',
      ),
    );
  }
  const clients = numberAt(output, 'fan_out', 'clients');
  const fanOut = (output.fan_out ?? {}) as Json;
  const series = (value: unknown): Rounds =>
    (value ?? { median: NaN, spread: 0, values: [] }) as Rounds;
  const perFrame = (key: string, field = 'cpu_us_per_frame'): Rounds =>
    series((fanOut[key] as Json | undefined)?.[field]);
  const spreadNote = (rounds: Rounds, extra = ''): string =>
    `spread ${Math.round(rounds.spread * 1000) / 10} % over ${rounds.values.length} rounds${extra}`;
  const area = `Streams /ws/metrics (${clients} clients)`;
  figures.push(
    figure(area, 'snapshot delivery p50', numberAt(output, 'fan_out', 'latency_ms', 'p50'), 'ms'),
    figure(area, 'snapshot delivery p99', numberAt(output, 'fan_out', 'latency_ms', 'p99'), 'ms', {
      note: 'information (swings with the machine); the goal < 50 ms is judged on CPU per frame against the floor',
    }),
    figure(
      area,
      'bare uWS publish p99 (floor)',
      numberAt(output, 'fan_out', 'floor_latency_ms', 'p99'),
      'ms',
    ),
    figure(area, 'p99 / floor', numberAt(output, 'fan_out', 'p99_ratio_to_floor'), '×', {
      note: 'information; judged on CPU per frame',
    }),
    figure(area, 'host CPU per frame delivered', round(perFrame('stackd').median), 'µs', {
      note: spreadNote(perFrame('stackd'), '; all the host did in the window'),
    }),
    figure(area, 'bare uWS CPU per frame (floor)', round(perFrame('floor').median), 'µs', {
      note: spreadNote(perFrame('floor')),
    }),
    figure(
      area,
      'CPU per frame / floor, gross',
      round(series(fanOut.cpu_per_frame_ratio_to_floor).median),
      '×',
      {
        note: spreadNote(
          series(fanOut.cpu_per_frame_ratio_to_floor),
          '; information: holds the collection',
        ),
      },
    ),
    figure(
      area,
      'host CPU per frame beyond its ticks',
      round(perFrame('stackd', 'net_cpu_us_per_frame').median),
      'µs',
      { note: spreadNote(perFrame('stackd', 'net_cpu_us_per_frame')) },
    ),
    figure(
      area,
      'bare uWS CPU per frame beyond its ticks (floor)',
      round(perFrame('floor', 'net_cpu_us_per_frame').median),
      'µs',
      { note: spreadNote(perFrame('floor', 'net_cpu_us_per_frame')) },
    ),
    // "p99 ≤ 1.5× the floor's" read on the work behind a tick's delivery: CPU per frame, less
    // each server's rate with no fan-out (collection happens before `taken_at`).
    stableFigure(
      area,
      'CPU per frame / floor',
      series(fanOut.net_cpu_per_frame_ratio_to_floor),
      '×',
      { op: '<=', limit: 1.5 },
    ),
    figure(
      area,
      'host CPU while streaming',
      numberAt(output, 'fan_out', 'host_cpu_percent_while_streaming'),
      '%',
    ),
  );
  return { figures, details: output };
}
