/**
 * How cost grows with the size of the stack: stackd (every plugin), pm2 (its daemon; PM2_HOME in
 * a temp dir) and supervisord (a private one, see supervisord-subject) each supervising 10, 50,
 * 200 and 1,000 `sleep` processes, all in the same run, beside the floor: a bare Node process
 * holding the children as stackd does and nothing else (scale/held-floor.ts). Per supervisor and size: RSS and private
 * memory (smaps_rollup), idle CPU over a window after a warm-up, start all and restart all until
 * every process runs, the list call; for stackd also the metrics tick, the /ws/metrics frame and
 * the list's CPU per request beside Fastify. Marginal cost per process is the least-squares
 * slope over 50 → 1,000. Before the supervisors at each size, two floors start and restart the
 * same processes: the bare spawn loop (the goal's floor) and the launch floor (the spawn loop plus
 * the cgroups, output FIFOs and durable records every stackd launch makes); after stackd's row, the
 * spawn loop again, grown to stackd's RSS (a fork costs more in a larger process). stackd's start
 * all and restart all are compared with each at every size. Writes scale.json, scale.md and scale.svg to the results folder.
 *
 * Settings (environment): BENCH_SCALE_SIZES (comma list), BENCH_SCALE_IDLE_S, BENCH_SCALE_WARMUP_S,
 * BENCH_SCALE_SUPERVISORS, BENCH_SCALE_ROUNDS (list CPU rounds), BENCH_SCALE_OUT (folder).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BENCH_DIR } from './lib/children.js';
import { cpuMs, sampleIdle, settle, smapsKiB } from './lib/proc-sample.js';
import { figure, type Figure } from './lib/report.js';
import { stableFigure } from './lib/stable.js';
import { ratio, round } from './lib/stats.js';
import { listCall, measureList, type ListTarget } from './scale/list-calls.js';
import { scaleSvg } from './scale/scale-plot.js';
import {
  scaleMarkdown,
  slope,
  SUPERVISORS,
  type ScaleResults,
  type ScaleRow,
  type SupervisorName,
} from './scale/scale-results.js';
import { apiCalls, type ApiCalls, type RouteCalls } from './scale/api-calls.js';
import { floorLabel, measureFloor, type FloorRow } from './scale/spawn-floor-row.js';
import { listCpu, metricsTick } from './scale/stackd-extras.js';
import { agentSubject } from './supervision/agent-subject.js';
import { stackdSubject } from './supervision/stackd-subject.js';
import type { Subject } from './supervision/subject.js';
import { supervisordSubject } from './supervision/supervisord-subject.js';

const SLEEP: readonly string[] = ['sleep', '86400'];
/** Calls of each GET route after the idle window (the p99 of 100 is the second slowest). */
const API_CALLS = 100;

/** Settings of the scale series. */
export interface ScaleBenchOptions {
  readonly sizes: readonly number[];
  readonly idleMs: number;
  readonly warmupMs: number;
  readonly supervisors: readonly SupervisorName[];
  readonly rounds: number;
  readonly outDir: string;
}

/** Settings from the environment over `defaults`. */
export function scaleOptions(defaults: ScaleBenchOptions): ScaleBenchOptions {
  const env = process.env;
  const list = (text: string | undefined): string[] | undefined =>
    text
      ?.split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  const supervisors = list(env.BENCH_SCALE_SUPERVISORS) ?? defaults.supervisors;
  for (const name of supervisors)
    if (!(SUPERVISORS as readonly string[]).includes(name))
      throw new Error(`BENCH_SCALE_SUPERVISORS: unknown ${name}`);
  return {
    sizes: list(env.BENCH_SCALE_SIZES)?.map(Number) ?? defaults.sizes,
    idleMs: env.BENCH_SCALE_IDLE_S ? Number(env.BENCH_SCALE_IDLE_S) * 1000 : defaults.idleMs,
    warmupMs: env.BENCH_SCALE_WARMUP_S
      ? Number(env.BENCH_SCALE_WARMUP_S) * 1000
      : defaults.warmupMs,
    supervisors: supervisors as SupervisorName[],
    rounds: env.BENCH_SCALE_ROUNDS ? Number(env.BENCH_SCALE_ROUNDS) : defaults.rounds,
    outDir: env.BENCH_SCALE_OUT ?? defaults.outDir,
  };
}

interface Made {
  readonly subject: Subject;
  /** `none`: the floor, which has no list call. */
  readonly target: ListTarget | { readonly kind: 'none' };
  readonly url?: string;
  cleanup?(): void;
}

async function make(name: SupervisorName, count: number): Promise<Made> {
  if (name === 'stackd') {
    const subject = await stackdSubject('stackd', count, SLEEP);
    const url = subject.url;
    return { subject, url, target: { kind: 'stackd', url } };
  }
  if (name === 'floor') {
    const script = join(BENCH_DIR, 'scale', 'held-floor.js');
    const subject = await agentSubject('node floor', script, count, SLEEP);
    return { subject, target: { kind: 'none' } };
  }
  if (name === 'pm2') {
    const home = mkdtempSync(join(tmpdir(), 'stackd-bench-pm2-'));
    const subject = await agentSubject(
      'pm2 daemon',
      join(BENCH_DIR, 'supervision', 'pm2-agent.js'),
      count,
      SLEEP,
      { ...process.env, PM2_HOME: home },
    );
    return {
      subject,
      target: { kind: 'pm2', home },
      cleanup: () => rmSync(home, { recursive: true, force: true }),
    };
  }
  const subject = await supervisordSubject(count, SLEEP);
  return { subject, target: { kind: 'supervisord', conf: subject.conf } };
}

async function measure(
  name: SupervisorName,
  count: number,
  options: ScaleBenchOptions,
): Promise<ScaleRow> {
  const made = await make(name, count);
  const { subject } = made;
  try {
    const cpu = (): number => cpuMs(subject.supervisorPid);
    const beforeStart = cpu();
    const start = await subject.startAll();
    const startCpu = cpu() - beforeStart;
    if (start.pids.length !== count) throw new Error(`${name}: not all ${count} started`);
    await settle(start.pids);
    const beforeRestart = cpu();
    const restart = await subject.restartAll();
    const restartCpu = cpu() - beforeRestart;
    if (restart.pids.length !== count) throw new Error(`${name}: not all ${count} restarted`);
    await settle(restart.pids);
    await sleep(options.warmupMs);
    const idle = await sampleIdle(subject.supervisorPid, options.idleMs);
    const memory = smapsKiB(subject.supervisorPid);
    const cli = name !== 'stackd';
    const list =
      made.target.kind === 'none'
        ? { p50_ms: Number.NaN, p99_ms: Number.NaN, supervisor_cpu_ms_per_call: Number.NaN }
        : await measureList(subject.supervisorPid, listCall(made.target), cli ? 5 : 50);
    const row: ScaleRow = {
      supervisor: name,
      processes: count,
      start_ms: round(start.ms, 1),
      restart_ms: round(restart.ms, 1),
      start_cpu_ms: startCpu,
      restart_cpu_ms: restartCpu,
      rss_mib: round(memory.rss / 1024, 1),
      private_mib: round(memory.private / 1024, 1),
      idle_cpu_percent: idle.cpu_percent,
      list_p50_ms: list.p50_ms,
      list_p99_ms: list.p99_ms,
      list_supervisor_cpu_ms: list.supervisor_cpu_ms_per_call,
    };
    if (made.url === undefined) return row;
    // Right after the idle window: every API call, one at a time, on the otherwise idle host.
    const pid = subject.supervisorPid;
    const api = await apiCalls(made.url, API_CALLS, pid);
    const tick = await metricsTick(
      made.url,
      pid,
      Math.max(10_000, options.idleMs),
      idle.cpu_percent,
    );
    // Enough requests that a round costs the host a few hundred ms of CPU at every size.
    const requests = Math.max(200, Math.min(2000, Math.round(40_000 / count)));
    const listCpuFigures = await listCpu(made.url, pid, {
      count: requests,
      rounds: options.rounds,
    });
    return { ...row, api, tick, list_cpu: listCpuFigures };
  } finally {
    await subject.close();
    made.cleanup?.();
  }
}

/**
 * stackd's marginal cost against the best peer's. One run gives one slope per supervisor, with no
 * spread to judge it by: a peer slope at or below zero (idle CPU under /proc's 10 ms resolution,
 * or load noise) makes the ratio meaningless, so the row says noise-bound instead of failing.
 */
function slopeVerdict(name: string, own: number, best: number): Figure {
  const note = 'one run: marginal cost from a least-squares slope';
  if (!(best > 0))
    return {
      ...figure('Scale', name, ratio(own, best), '×', { note: `${note}; peer slope ≤ 0` }),
      goal: { op: '<=', limit: 1 },
      noiseBound: true,
    };
  return figure('Scale', name, ratio(own, best), '×', { goal: { op: '<=', limit: 1 }, note });
}

function scaleFigures(results: ScaleResults): Figure[] {
  const area = 'Scale';
  const figures: Figure[] = [];
  const largest = Math.max(...results.sizes);
  const at = (name: SupervisorName): ScaleRow | undefined =>
    results.rows.find((row) => row.supervisor === name && row.processes === largest);
  const fields = [
    ['rss_mib', 'RSS per process', 'KiB', 1024],
    ['private_mib', 'private memory per process', 'KiB', 1024],
    ['idle_cpu_percent', 'idle CPU per 1,000 processes', '%', 1000],
  ] as const;
  for (const [field, label, unit, scale] of fields) {
    const slopes = Object.fromEntries(
      results.rows.length === 0
        ? []
        : SUPERVISORS.map((name) => [name, slope(results.rows, name, field).value * scale]),
    ) as Record<SupervisorName, number>;
    for (const name of SUPERVISORS)
      if (Number.isFinite(slopes[name]))
        figures.push(figure(area, `${label}: ${name} (slope)`, round(slopes[name], 3), unit));
    const peers = [slopes.pm2, slopes.supervisord].filter(Number.isFinite);
    if (Number.isFinite(slopes.stackd) && peers.length > 0)
      figures.push(slopeVerdict(`${label}: stackd / best peer`, slopes.stackd, Math.min(...peers)));
  }
  figures.push(...floorFigures(results));
  const own = at('stackd');
  for (const peer of ['pm2', 'supervisord'] as const) {
    const other = at(peer);
    if (own === undefined || other === undefined) continue;
    for (const step of ['start_ms', 'restart_ms'] as const)
      figures.push(
        figure(
          area,
          `${step === 'start_ms' ? 'start' : 'restart'} ${largest}: stackd / ${peer}`,
          ratio(own[step], other[step]),
          '×',
          {
            goal: { op: '<', limit: 1 },
          },
        ),
      );
  }
  if (own?.list_cpu !== undefined)
    figures.push(
      stableFigure(
        area,
        `GET /process/processes at ${largest}: CPU per request stackd / Fastify`,
        own.list_cpu.ratio,
        '×',
        { op: '<=', limit: 0.3 },
      ),
    );
  if (own !== undefined && largest >= 1000)
    figures.push(
      figure(area, `idle CPU at ${largest}: stackd`, own.idle_cpu_percent, '%', {
        goal: { op: '<', limit: 1 },
      }),
    );
  if (own?.api?.worst !== undefined && largest >= 1000)
    figures.push(
      figure(area, `every API call at ${largest}, idle: worst p99`, own.api.worst.p99_ms, 'ms', {
        goal: { op: '<', limit: 20 },
        note: `${own.api.worst.route} (${own.api.worst.cpu_ms} ms host CPU per call, ${own.api.worst.bytes} bytes); ${own.api.routes.length} GET routes × ${own.api.calls_per_route} calls, one at a time`,
      }),
    );
  if (own?.api !== undefined && largest >= 1000) figures.push(...apiFigures(own.api, largest));
  return figures;
}

/**
 * Beside the worst p99: the most host CPU one call of a route costs (what the host itself can
 * cut; the rest of a p99 on a loaded machine is waiting for a core), and the floor of the largest
 * answer, the same client fetching as many bytes from a bare node:http server in the same run.
 */
function apiFigures(api: ApiCalls, largest: number): Figure[] {
  const figures: Figure[] = [];
  const costliest = api.routes.reduce<RouteCalls | undefined>(
    (top, entry) => (top === undefined || entry.cpu_ms > top.cpu_ms ? entry : top),
    undefined,
  );
  if (costliest !== undefined)
    figures.push(
      figure(
        'Scale',
        `every API call at ${largest}, idle: most host CPU per call`,
        costliest.cpu_ms,
        'ms',
        {
          note: `${costliest.route}: p50 ${costliest.p50_ms} / p99 ${costliest.p99_ms} ms, ${costliest.bytes} bytes`,
        },
      ),
    );
  const floor = api.floor;
  if (floor !== undefined)
    figures.push(
      figure(
        'Scale',
        `every API call at ${largest}: floor p99 for the largest answer`,
        floor.p99_ms,
        'ms',
        {
          note: `${floor.bytes} bytes from a bare node:http server to the same client: p50 ${floor.p50_ms} ms, server CPU ${floor.cpu_ms} ms per call`,
        },
      ),
    );
  return figures;
}

/**
 * Per size and floor: its start all and restart all, and stackd's against it. The goal (≤ 1.5×)
 * is against the bare spawn loop; against the other floors the ratio shows what is left, no goal.
 */
function floorFigures(results: ScaleResults): Figure[] {
  const figures: Figure[] = [];
  for (const floor of results.floor ?? []) {
    const count = floor.processes;
    const name = floorLabel(floor);
    const own = results.rows.find((row) => row.supervisor === 'stackd' && row.processes === count);
    for (const [step, label] of [
      ['start_ms', 'start'],
      ['restart_ms', 'restart'],
    ] as const) {
      figures.push(figure('Scale', `${label} ${count}: ${name}`, round(floor[step], 1), 'ms'));
      if (own === undefined) continue;
      const goal =
        (floor.kind ?? 'spawn') === 'spawn' ? { goal: { op: '<=' as const, limit: 1.5 } } : {};
      figures.push(
        figure(
          'Scale',
          `${label} ${count}: stackd / ${name}`,
          ratio(own[step], floor[step]),
          '×',
          goal,
        ),
      );
      const cpuField = step === 'start_ms' ? 'start_cpu_ms' : 'restart_cpu_ms';
      const ownCpu = own[cpuField];
      const floorCpu = floor[cpuField];
      if (ownCpu !== undefined && floorCpu !== undefined)
        figures.push(
          figure('Scale', `${label} ${count}: stackd / ${name}, CPU`, ratio(ownCpu, floorCpu), '×'),
        );
    }
  }
  return figures;
}

/** Run the scale series and write its files. */
export async function scaleBench(
  options: ScaleBenchOptions,
): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const loadBefore = loadavg().map((value) => round(value, 2));
  const rows: ScaleRow[] = [];
  const floor: FloorRow[] = [];
  const dir = resolve(options.outDir);
  mkdirSync(dir, { recursive: true });
  for (const count of options.sizes) {
    for (const kind of ['spawn', 'launch'] as const) {
      process.stderr.write(`bench: scale ${kind} floor × ${count}…\n`);
      floor.push(await measureFloor(kind, count, SLEEP));
    }
    for (const name of options.supervisors) {
      process.stderr.write(`bench: scale ${name} × ${count}…\n`);
      const row = await measure(name, count, options);
      rows.push(row);
      if (name === 'stackd') {
        process.stderr.write(`bench: scale spawn floor at ${row.rss_mib} MiB × ${count}…\n`);
        floor.push(await measureFloor('sized', count, SLEEP, row.rss_mib));
      }
      // Rows so far survive a later failure (a 1,000-process row can take many minutes).
      writeFileSync(
        join(dir, 'scale-partial.json'),
        `${JSON.stringify({ rows, floor }, null, 2)}\n`,
      );
    }
  }
  const results: ScaleResults = {
    date: new Date().toISOString(),
    load_avg_before: loadBefore,
    load_avg_after: loadavg().map((value) => round(value, 2)),
    sizes: options.sizes,
    idle_window_ms: options.idleMs,
    rows,
    floor,
  };
  writeFileSync(join(dir, 'scale.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(dir, 'scale.md'), `${scaleMarkdown(results)}\n`);
  writeFileSync(join(dir, 'scale.svg'), scaleSvg(results));
  process.stderr.write(`bench: scale results in ${dir}\n${scaleMarkdown(results)}\n`);
  return { figures: scaleFigures(results), details: { options, results_dir: dir } };
}
