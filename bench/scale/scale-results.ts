/** The scale series' results file, its least-squares slopes and its Markdown table. */
import type { ApiCalls } from './api-calls.js';
import { round } from '../lib/stats.js';
import { floorLabel, type FloorRow } from './spawn-floor-row.js';
import type { ListCpuFigures, TickFigures } from './stackd-extras.js';

/**
 * `floor` is not a supervisor: a bare Node process holding the children as stackd does and
 * nothing else (held-floor.ts), what any Node supervisor pays per process at least.
 */
export const SUPERVISORS = ['stackd', 'pm2', 'supervisord', 'floor'] as const;
export type SupervisorName = (typeof SUPERVISORS)[number];

/** One supervisor at one size (the floor has no list call: its list figures are NaN). */
export interface ScaleRow {
  readonly supervisor: SupervisorName;
  readonly processes: number;
  readonly start_ms: number;
  readonly restart_ms: number;
  /** The supervisor's own CPU (all its threads) during start all and restart all. */
  readonly start_cpu_ms?: number;
  readonly restart_cpu_ms?: number;
  readonly rss_mib: number;
  readonly private_mib: number;
  readonly idle_cpu_percent: number;
  readonly list_p50_ms: number;
  readonly list_p99_ms: number;
  readonly list_supervisor_cpu_ms: number;
  readonly tick?: TickFigures;
  readonly list_cpu?: ListCpuFigures;
  /** Every GET route called one at a time after the idle window (stackd). */
  readonly api?: ApiCalls;
}

/** Everything one scale run measured. */
export interface ScaleResults {
  readonly date: string;
  readonly load_avg_before: readonly number[];
  readonly load_avg_after: readonly number[];
  readonly sizes: readonly number[];
  readonly idle_window_ms: number;
  readonly rows: readonly ScaleRow[];
  /** The spawn floor at each size (absent in results written before it was measured). */
  readonly floor?: readonly FloorRow[];
}

type Numeric = 'rss_mib' | 'private_mib' | 'idle_cpu_percent' | 'start_ms' | 'restart_ms';

/**
 * Least-squares slope of `field` against the number of processes for one supervisor, over the
 * sizes from 50 up (the marginal cost, without the fixed cost a tiny stack is dominated by);
 * over every size when fewer than two are that large. NaN with fewer than two points.
 */
export function slope(
  rows: readonly ScaleRow[],
  supervisor: SupervisorName,
  field: Numeric,
): { value: number; sizes: number[] } {
  const own = rows.filter((row) => row.supervisor === supervisor && Number.isFinite(row[field]));
  const large = own.filter((row) => row.processes >= 50);
  const points = large.length >= 2 ? large : own;
  const sizes = points.map((row) => row.processes);
  if (points.length < 2) return { value: Number.NaN, sizes };
  const meanX = sizes.reduce((sum, x) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, row) => sum + row[field], 0) / points.length;
  let num = 0;
  let den = 0;
  for (const row of points) {
    num += (row.processes - meanX) * (row[field] - meanY);
    den += (row.processes - meanX) ** 2;
  }
  return { value: den === 0 ? Number.NaN : num / den, sizes };
}

const cell = (value: number, digits = 1): string =>
  Number.isFinite(value) ? String(round(value, digits)) : 'n/a';

/** `ms` with the CPU time beside it when known: `1200 (cpu 800)`. */
const timed = (ms: number, cpu: number | undefined): string =>
  cpu === undefined ? cell(ms, 0) : `${cell(ms, 0)} (cpu ${cell(cpu, 0)})`;

/** Start all and restart all against each floor, per size (empty without floor rows). */
function floorMarkdown(results: ScaleResults): string[] {
  const floors = results.floor ?? [];
  if (floors.length === 0) return [];
  const lines = [
    '',
    '| processes | floor | floor start ms | stackd start ms | stackd / floor | floor restart ms | stackd restart ms | stackd / floor |',
    `|${' --- |'.repeat(8)}`,
  ];
  for (const floor of floors) {
    const own = results.rows.find(
      (row) => row.supervisor === 'stackd' && row.processes === floor.processes,
    );
    const start = own?.start_ms ?? NaN;
    const restart = own?.restart_ms ?? NaN;
    lines.push(
      `| ${floor.processes} | ${floorLabel(floor)} | ${timed(floor.start_ms, floor.start_cpu_ms)} | ${timed(start, own?.start_cpu_ms)} | ${cell(start / floor.start_ms, 2)} | ${timed(floor.restart_ms, floor.restart_cpu_ms)} | ${timed(restart, own?.restart_cpu_ms)} | ${cell(restart / floor.restart_ms, 2)} |`,
    );
  }
  return lines;
}

/** The scale table of docs/performance.md: supervisors × sizes, then the marginal cost per process. */
export function scaleMarkdown(results: ScaleResults): string {
  const header =
    '| supervisor | processes | RSS MiB | private MiB | idle CPU % | start all ms | restart all ms | list p50 ms | list CPU ms/call |';
  const lines = [header, `|${' --- |'.repeat(9)}`];
  for (const row of [...results.rows].sort(
    (a, b) =>
      SUPERVISORS.indexOf(a.supervisor) - SUPERVISORS.indexOf(b.supervisor) ||
      a.processes - b.processes,
  ))
    lines.push(
      `| ${row.supervisor} | ${row.processes} | ${cell(row.rss_mib)} | ${cell(row.private_mib)} | ${cell(row.idle_cpu_percent, 2)} | ${cell(row.start_ms, 0)} | ${cell(row.restart_ms, 0)} | ${cell(row.list_p50_ms)} | ${cell(row.list_supervisor_cpu_ms, 2)} |`,
    );
  lines.push(
    '',
    '| supervisor | RSS KiB / process | private KiB / process | idle CPU % / 1,000 processes | start ms / process | sizes |',
    `|${' --- |'.repeat(6)}`,
  );
  for (const name of SUPERVISORS) {
    const rss = slope(results.rows, name, 'rss_mib');
    if (rss.sizes.length === 0) continue;
    lines.push(
      `| ${name} | ${cell(rss.value * 1024)} | ${cell(slope(results.rows, name, 'private_mib').value * 1024)} | ${cell(slope(results.rows, name, 'idle_cpu_percent').value * 1000, 3)} | ${cell(slope(results.rows, name, 'start_ms').value, 2)} | ${rss.sizes.join(', ')} |`,
    );
  }
  lines.push(...floorMarkdown(results));
  const stackd = results.rows.filter((row) => row.supervisor === 'stackd' && row.tick);
  if (stackd.length > 0) {
    lines.push(
      '',
      '| stackd processes | /ws/metrics frame bytes | tick CPU ms | tick CPU ms, gross | stringify ms | list CPU ms/request (spread) | Fastify ms/request (spread) | ratio (spread) | list req/s |',
      `|${' --- |'.repeat(9)}`,
    );
    for (const row of stackd) {
      const list = row.list_cpu;
      const spread = (value: { median: number; spread: number } | undefined): string =>
        value === undefined
          ? 'n/a'
          : `${cell(value.median, 3)} (±${cell((value.spread * 100) / 2, 0)} %)`;
      lines.push(
        `| ${row.processes} | ${row.tick?.frame_bytes ?? 'n/a'} | ${cell(row.tick?.tick_cpu_ms ?? NaN, 2)} | ${cell(row.tick?.tick_cpu_ms_gross ?? NaN, 2)} | ${cell(row.tick?.serialize_ms ?? NaN, 3)} | ${spread(list?.stackd_cpu_ms)} | ${spread(list?.fastify_cpu_ms)} | ${spread(list?.ratio)} | ${cell(list?.stackd_rps.median ?? NaN, 0)} |`,
      );
    }
  }
  lines.push(
    '',
    `Measured ${results.date}, load average ${results.load_avg_before.join(' ')} before and ${results.load_avg_after.join(' ')} after; idle CPU over ${results.idle_window_ms / 1000} s.`,
  );
  return lines.join('\n');
}
