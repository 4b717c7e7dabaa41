/**
 * Adoption (`npm run bench -- --only adoption`): per round, the time from spawning a host to
 * `GET /process/processes` answering with all N processes running, once from scratch and once
 * adopting them after a host SIGKILL and a 5 s gap; then the lines a process printing every
 * 10 ms lost or repeated across that gap. "Serving" after the gap means every process listed
 * running with the pid it had before — a restart would not count. The
 * adopting host's own boot (spawn → listening) is reported beside it: it is most of the time.
 * In the gap, the floor (adoption-floor.ts) is timed the same way on the same records: what any
 * Node program doing the unavoidable work reaches on this machine. Before the rounds, one
 * unmeasured from-scratch start writes the hosts' code cache in a folder of the bench's own, so
 * the figures do not depend on which earlier boot wrote it. Loopback only; the real host built in
 * dist/.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from '../test/helpers/http.js';
import { startHost, type RunningHostProcess } from '../test/helpers/start-host.js';
import { SAVE_DELAY_MS } from '../host/bundle-loader.cjs';
import { builtinPlugin } from '../test/helpers/fixture-paths.js';
import { track, untrack } from './lib/cleanup.js';
import { cpuMs } from './lib/proc-sample.js';
import { figure, type Figure } from './lib/report.js';
import { rounds as series, stableFigure, type Rounds } from './lib/stable.js';
import { round } from './lib/stats.js';

/** Settings of the adoption benchmark. */
export interface AdoptionBenchOptions {
  readonly rounds: number;
  readonly processes: number;
  /** How long no host runs between the SIGKILL and the next host's start. */
  readonly gapMs: number;
}

const SLEEPER = 'process.on("SIGTERM", () => process.exit(0)); setInterval(() => {}, 60000);';
const PRINTER = 'let n = 0; setInterval(() => console.log("line " + n++), 10);';
const PLUGINS = [builtinPlugin('supervisor')];
const POLL_MS = 25;
const FLOOR_JS = join(dirname(fileURLToPath(import.meta.url)), 'adoption-floor.js');

interface Listed {
  processes: { process_name: string; status: string; pid: number | null }[];
}

/** One round's measurements. */
interface Round {
  readonly fresh_ms: number;
  readonly adopted_ms: number;
  readonly adopting_listen_ms: number;
  /** The from-scratch host's spawn → listening: what its start costs before any launch. */
  readonly fresh_listen_ms: number;
  /** CPU time (utime + stime) of each host up to the moment its list was complete. */
  readonly fresh_cpu_ms: number;
  readonly adopted_cpu_ms: number;
  readonly floor_ms: number;
  readonly floor_cpu_ms: number;
  /** The floor's spawn → its listening line (it verifies the records before it listens). */
  readonly floor_listen_ms: number;
  readonly lines_printed: number;
  readonly lines_before_gap: number;
  readonly lines_lost: number;
  readonly lines_repeated: number;
}

/** The bench's stack: `processes` sleepers and a printer, start check 300 ms. */
export function config(processes: number): Record<string, unknown> {
  const blocks: Record<string, unknown> = {};
  for (let i = 0; i < processes; i += 1)
    blocks[`p${i}`] = { enabled: true, process_name: `P${i}`, command: ['node', '-e', SLEEPER] };
  blocks.printer = { enabled: true, process_name: 'Printer', command: ['node', '-e', PRINTER] };
  return {
    stackd: {
      api_service: { enabled: true, process_name: 'stackd API', log_level: 'INFO' },
      supervisor: { start_check_ms: 300 },
    },
    ...blocks,
  };
}

/** Poll until `ready` holds for the listed supervised processes; returns them. */
export async function listedUntil(
  host: Pick<RunningHostProcess, 'url'>,
  ready: (listed: Listed['processes']) => boolean,
): Promise<Listed['processes']> {
  for (;;) {
    const { body } = await request<Listed>(host.url, '/process/processes');
    const supervised = body.processes.filter((entry) => entry.process_name !== 'stackd API');
    if (ready(supervised)) return supervised;
    await sleep(POLL_MS);
  }
}

async function printedLines(host: RunningHostProcess): Promise<number[]> {
  const { body } = await request<{ log: string }>(host.url, '/logs?process_name=Printer');
  return body.log
    .split('\n')
    .filter((line) => line.startsWith('line '))
    .map((line) => Number(line.slice(5)));
}

/**
 * A host of the bench's, its caches in `cacheHome` (the bundle's V8 code cache on Node 20, Node's
 * compile cache on 22+): which boot wrote a build's cache moves an adopting boot by ~30 M
 * instructions (docs/adoption.md), so the bench writes its own with an unmeasured boot of the
 * same stack instead of inheriting whatever an earlier area or test left.
 */
async function startTracked(options: Parameters<typeof startHost>[0], cacheHome: string) {
  const began = performance.now();
  // As every other bench (lib/host.ts): a production host, not the test helper's default of
  // validating every response and event against its schema, which no user's host does.
  const host = await startHost({
    ...options,
    plugins: PLUGINS,
    bootTimeoutMs: 60_000,
    env: { STACKD_VALIDATE_RESPONSES: '0', XDG_CACHE_HOME: cacheHome },
  });
  track(host.child.pid, 'stackd host (adoption)');
  return { host, began, listenMs: performance.now() - began };
}

/**
 * The floor (adoption-floor.ts) on the same data dir, timed like the adopting host: from its
 * spawn until its list shows every process running with the pid it had. Read-only: the host
 * after it adopts the same processes.
 */
async function floorRun(
  dataDir: string,
  configPath: string,
  pids: ReadonlyMap<string, number | null>,
): Promise<{ ms: number; cpu: number; listenMs: number }> {
  const began = performance.now();
  const child = spawn(process.execPath, [FLOOR_JS, dataDir, configPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  track(child.pid, 'adoption floor');
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /floor listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`adoption floor exited with ${code}`)));
  });
  const listenMs = performance.now() - began;
  await listedUntil({ url }, (list) =>
    list.every((entry) => entry.status === 'running' && entry.pid === pids.get(entry.process_name)),
  );
  const ms = performance.now() - began;
  const cpu = cpuMs(child.pid ?? 0);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  untrack(child.pid);
  return { ms, cpu, listenMs };
}

async function oneRound(options: AdoptionBenchOptions, cacheHome: string): Promise<Round> {
  const count = options.processes + 1;
  const fresh = await startTracked({ config: config(options.processes) }, cacheHome);
  const before = await listedUntil(
    fresh.host,
    (list) => list.filter((entry) => entry.status === 'running').length >= count,
  );
  const freshMs = performance.now() - fresh.began;
  const freshCpu = cpuMs(fresh.host.child.pid ?? 0);
  const lastBefore = (await printedLines(fresh.host)).at(-1) ?? -1;
  for (const entry of before) track(entry.pid ?? undefined, `adoption bench ${entry.process_name}`);
  await fresh.host.stop('SIGKILL');
  untrack(fresh.host.child.pid);
  const gapBegan = performance.now();
  const pids = new Map(before.map((entry) => [entry.process_name, entry.pid]));
  // The floor runs inside the gap, which stays as long as it was.
  await sleep(options.gapMs / 2);
  const floor = await floorRun(fresh.host.dataDir, fresh.host.configPath as string, pids);
  await sleep(Math.max(0, options.gapMs - (performance.now() - gapBegan)));
  const next = await startTracked(
    { configPath: fresh.host.configPath as string, dataDir: fresh.host.dataDir },
    cacheHome,
  );
  // The same pid as before the gap: adopted, not started again.
  await listedUntil(next.host, (list) =>
    list.every((entry) => entry.status === 'running' && entry.pid === pids.get(entry.process_name)),
  );
  const adoptedMs = performance.now() - next.began;
  const adoptedCpu = cpuMs(next.host.child.pid ?? 0);
  // The gap's backlog is in the log once the log has moved on past it (50 lines: half a second
  // of printing, far fewer than the gap holds).
  let printed = await printedLines(next.host);
  const deadline = performance.now() + 60_000;
  while ((printed.at(-1) ?? -1) < lastBefore + 50 && performance.now() < deadline) {
    await sleep(POLL_MS);
    printed = await printedLines(next.host);
  }
  const distinct = new Set(printed).size;
  const last = printed.at(-1) ?? -1;
  await next.host.stop();
  untrack(next.host.child.pid);
  for (const entry of before) untrack(entry.pid ?? undefined);
  rmSync(next.host.dataDir, { recursive: true, force: true });
  rmSync(dirname(next.host.configPath as string), { recursive: true, force: true });
  return {
    fresh_ms: round(freshMs, 0),
    adopted_ms: round(adoptedMs, 0),
    adopting_listen_ms: round(next.listenMs, 0),
    fresh_listen_ms: round(fresh.listenMs, 0),
    fresh_cpu_ms: freshCpu,
    adopted_cpu_ms: adoptedCpu,
    floor_ms: round(floor.ms, 0),
    floor_cpu_ms: floor.cpu,
    floor_listen_ms: round(floor.listenMs, 0),
    lines_printed: last + 1,
    lines_before_gap: lastBefore + 1,
    // A log that never got past the gap counts what it lacks as lost, not as nothing.
    lines_lost: last + 1 - distinct + Math.max(0, lastBefore + 50 - last),
    lines_repeated: printed.length - distinct,
  };
}

/**
 * The goal's ratio for a supervisor whose boot were the floor's. The from-scratch time holds
 * stackd's own boot as well as the launches; dividing the floor by it compares the floor with a
 * start that pays stackd's boot. Here the from-scratch start keeps what follows stackd's listening
 * (the launches and their start checks) and pays the floor's spawn → listening instead.
 */
function floorBootRatio(entry: Round): number {
  return entry.floor_ms / (entry.floor_listen_ms + entry.fresh_ms - entry.fresh_listen_ms);
}

/** What the floor's own ratio says of the 0.2× goal on this machine, at this load. */
function floorVerdict(ratio: number): string {
  return ratio >= 0.2
    ? 'at or above 0.2: the goal is at or below the floor on this machine at this load'
    : 'below 0.2: the floor meets the goal here';
}

function note(rounds: Rounds): string {
  return `median of ${rounds.values.length}: ${rounds.values.join(', ')}; spread ${round(rounds.spread * 100, 1)} %`;
}

/**
 * An unmeasured from-scratch start of the bench's stack with the bench's cache folder, kept up
 * until the host has saved its code cache (host/bundle-loader.cts, {@link SAVE_DELAY_MS} after
 * its listen, and as long again for the write), then stopped with its processes: what a user's
 * install has after its first boot.
 */
async function warmCodeCache(processes: number, cacheHome: string): Promise<void> {
  const warm = await startTracked({ config: config(processes) }, cacheHome);
  await listedUntil(
    warm.host,
    (list) => list.filter((entry) => entry.status === 'running').length >= processes + 1,
  );
  const sinceListen = performance.now() - warm.began - warm.listenMs;
  await sleep(Math.max(0, 2 * SAVE_DELAY_MS - sinceListen));
  await warm.host.stop();
  untrack(warm.host.child.pid);
  rmSync(warm.host.dataDir, { recursive: true, force: true });
  rmSync(dirname(warm.host.configPath as string), { recursive: true, force: true });
}

/** Run the adoption area. */
export async function adoptionBench(
  options: AdoptionBenchOptions,
): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const cacheHome = mkdtempSync(join(tmpdir(), 'stackd-adoption-cache-'));
  const measured: Round[] = [];
  try {
    await warmCodeCache(options.processes, cacheHome);
    for (let index = 0; index < options.rounds; index += 1)
      measured.push(await oneRound(options, cacheHome));
  } finally {
    rmSync(cacheHome, { recursive: true, force: true });
  }
  const fresh = series(measured.map((entry) => entry.fresh_ms));
  const adopted = series(measured.map((entry) => entry.adopted_ms));
  const listen = series(measured.map((entry) => entry.adopting_listen_ms));
  const ratios = series(measured.map((entry) => entry.adopted_ms / entry.fresh_ms));
  const floor = series(measured.map((entry) => entry.floor_ms));
  const floorRatios = series(measured.map((entry) => entry.floor_ms / entry.fresh_ms));
  const floorBootRatios = series(measured.map(floorBootRatio));
  const cpu = (pick: (entry: Round) => number): string =>
    `CPU ${series(measured.map(pick)).median} ms (median; /proc utime + stime up to that moment)`;
  const lost = Math.max(...measured.map((entry) => entry.lines_lost));
  const repeated = Math.max(...measured.map((entry) => entry.lines_repeated));
  const printed = Math.min(
    ...measured.map((entry) => entry.lines_printed - entry.lines_before_gap),
  );
  const n = options.processes;
  const gap = `${options.gapMs / 1000} s`;
  const figures = [
    figure('adoption', `host start → ${n} running, from scratch`, round(fresh.median, 0), 'ms', {
      note: `${note(fresh)}; ${cpu((entry) => entry.fresh_cpu_ms)}`,
    }),
    figure('adoption', `host start → ${n} adopted and serving`, round(adopted.median, 0), 'ms', {
      note: `${note(adopted)}; ${cpu((entry) => entry.adopted_cpu_ms)}`,
    }),
    figure(
      'adoption',
      'of which the host boot (start → listening)',
      round(listen.median, 0),
      'ms',
      {
        note: note(listen),
      },
    ),
    stableFigure('adoption', 'adopted ÷ from scratch', ratios, '×', { op: '<=', limit: 0.2 }),
    figure(
      'adoption',
      `floor: bare uWS program verifying the ${n} records and listing them`,
      round(floor.median, 0),
      'ms',
      { note: `${note(floor)}; ${cpu((entry) => entry.floor_cpu_ms)}` },
    ),
    figure('adoption', 'floor ÷ from scratch', round(floorRatios.median, 3), '×', {
      note: `what any Node program reaches here; ${note(floorRatios)}`,
    }),
    figure(
      'adoption',
      'floor ÷ (floor boot + from scratch after listening)',
      round(floorBootRatios.median, 3),
      '×',
      {
        note:
          `the ratio a supervisor booting as fast as the floor would reach: the from-scratch ` +
          `start keeps its launches but pays the floor's spawn → listening instead of stackd's; ` +
          `${floorVerdict(floorBootRatios.median)}; ${note(floorBootRatios)}`,
      },
    ),
    figure('adoption', `lines lost in a ${gap} gap (worst round)`, lost, 'lines', {
      goal: { op: '<=', limit: 0 },
      note: `a line every 10 ms; ≥ ${printed} lines after the last one the killed host had logged, all checked; bound 64 KiB per stream`,
    }),
    figure('adoption', `lines repeated after a ${gap} gap (worst round)`, repeated, 'lines', {
      goal: { op: '<=', limit: 0 },
    }),
  ];
  return { figures, details: { processes: n, gap_ms: options.gapMs, rounds: measured } };
}
