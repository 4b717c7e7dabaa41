/**
 * The terminal client (`npm run bench -- --only cli`):
 * - `stackd status` wall time, exec to exit, with 50 supervised processes, against `node -e 0`
 *   (the floor of any Node program), `pm2 ls` and `supervisorctl status` with the same 50
 *   programs. Runs are interleaved per round; medians are compared.
 * - `stackd logs -f`: how long a printed line takes to reach the client's stdout (p99), and
 *   whether 10,000 lines/s are followed without falling behind.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startPm2, startSupervisord, type Peer } from './cli-peers.js';
import { track, untrack } from './lib/cleanup.js';
import { BENCH_DIR } from './lib/children.js';
import { processBlocks, startBenchHost, stopHost } from './lib/host.js';
import { figure, type Figure, type Goal } from './lib/report.js';
import { median, percentile, round } from './lib/stats.js';
import { waitFor } from './lib/wait.js';

/** The file package.json's `bin` names: the `stackd` command as installed. */
function installedBin(): string {
  const repo = join(BENCH_DIR, '..', '..');
  const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
    bin: { stackd: string };
  };
  return join(repo, manifest.bin.stackd);
}

const BIN = installedBin();

export interface CliBenchOptions {
  readonly processes: number;
  readonly rounds: number;
  /** Lines per second of the throughput run, for `seconds`. */
  readonly rate: number;
  readonly seconds: number;
}

/** CPU time (user + system, ms) of this process's waited-for children so far, from /proc. */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // cutime and cstime are fields 16 and 17 of stat(5), in clock ticks (100 a second).
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** Wall and CPU time of one run, exec to exit. */
function timeRun(command: readonly string[], env: Record<string, string>) {
  const [program, ...args] = command as [string, ...string[]];
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const result = spawnSync(program, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
  const wall = performance.now() - started;
  if (result.error !== undefined) throw result.error;
  return { wall, cpu: childrenCpuMs() - cpuBefore };
}

/** A program printing `<epoch ms> <n>` lines: `perTick` lines every `tickMs`, `total` in all. */
function emitterCommand(perTick: number, tickMs: number, total: number): string[] {
  const script =
    `let n=0;const t=setInterval(()=>{let s='';for(let i=0;i<${perTick}&&n<${total};i++)` +
    `s+=(performance.timeOrigin+performance.now()).toFixed(3)+' '+(n++)+'\\n';` +
    `process.stdout.write(s);if(n>=${total})clearInterval(t)},${tickMs})`;
  return [process.execPath, '-e', script];
}

/** Wall and CPU times (ms) per subject, one value per round, rounds interleaved. */
interface StatusRuns {
  readonly wall: Map<string, number[]>;
  readonly cpu: Map<string, number[]>;
}

async function statusTimes(options: CliBenchOptions): Promise<StatusRuns> {
  const host = await startBenchHost(processBlocks(options.processes, { enabled: true }));
  const peers: Peer[] = [];
  try {
    peers.push(await startPm2(options.processes));
    const supervisord = await startSupervisord(options.processes);
    if (supervisord !== undefined) peers.push(supervisord);
    const subjects: { label: string; command: readonly string[]; env: Record<string, string> }[] = [
      { label: 'node -e 0', command: [process.execPath, '-e', '0'], env: {} },
      {
        label: 'stackd status',
        command: [process.execPath, BIN, 'status'],
        env: { STACKD_URL: host.url },
      },
      ...peers,
    ];
    const wall = new Map(subjects.map((subject) => [subject.label, [] as number[]]));
    const cpu = new Map(subjects.map((subject) => [subject.label, [] as number[]]));
    for (let round = 0; round < options.rounds; round += 1)
      for (const subject of subjects) {
        const run = timeRun(subject.command, subject.env);
        wall.get(subject.label)?.push(run.wall);
        cpu.get(subject.label)?.push(run.cpu);
      }
    return { wall, cpu };
  } finally {
    for (const peer of peers) peer.stop();
    await stopHost(host);
  }
}

/** Follow one process with `stackd logs -f`; collect (receive time − print time) per line. */
async function followRun(perTick: number, tickMs: number, total: number) {
  const host = await startBenchHost({
    emitter: {
      enabled: false,
      process_name: 'Emitter',
      command: emitterCommand(perTick, tickMs, total),
    },
  });
  const client = spawn(process.execPath, [BIN, 'logs', 'Emitter', '-f', '-n', '0'], {
    env: { ...process.env, STACKD_URL: host.url },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  track(client.pid, 'stackd logs -f');
  const latencies: number[] = [];
  const sentTimes: number[] = [];
  let firstReceived = 0;
  let lastReceived = 0;
  let rest = '';
  client.stdout.on('data', (chunk: Buffer) => {
    const now = performance.timeOrigin + performance.now();
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const sent = Number(line.split(' ')[0]);
      if (!Number.isFinite(sent)) continue;
      latencies.push(now - sent);
      sentTimes.push(sent);
    }
    if (firstReceived === 0) firstReceived = now;
    lastReceived = now;
  });
  try {
    // The client is following once its socket is open; give it a moment, then start the writer.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await fetch(`${host.url}/process/start-service`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ process_name: 'Emitter' }),
    });
    await waitFor(
      () => latencies.length,
      (count) => count >= total,
      120_000,
      20,
    );
    // The first tenth is left out: the writer's start and the client's first reads.
    return {
      latencies: latencies.slice(Math.floor(total / 10)),
      seconds: (lastReceived - firstReceived) / 1000,
      // How fast the writer really wrote (a loaded machine delays its timer ticks).
      writtenSeconds: ((sentTimes.at(-1) ?? 0) - (sentTimes[0] ?? 0)) / 1000,
    };
  } finally {
    client.kill('SIGTERM');
    untrack(client.pid);
    await stopHost(host);
  }
}

/** Per-round ratios `a / b` of two equally long series of interleaved runs. */
function roundRatios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, index) => value / (b[index] ?? Number.NaN));
}

/** "p25–p75 a–b over n rounds" of per-round ratios. */
function spreadNote(ratios: readonly number[], extra: string): string {
  const low = round(percentile(ratios, 25), 2);
  const high = round(percentile(ratios, 75), 2);
  return `per-round ratio p25–p75 ${low}–${high} over ${ratios.length} rounds; ${extra}`;
}

/** The `stackd status` rows: median wall per subject, and ratios with their spread. */
function statusFigures(area: string, processes: number, runs: StatusRuns): Figure[] {
  const wallOf = (label: string): readonly number[] => runs.wall.get(label) ?? [];
  const cpuOf = (label: string): readonly number[] => runs.cpu.get(label) ?? [];
  const versus = (label: string, goal: Goal): Figure => {
    const ratios = roundRatios(wallOf('stackd status'), wallOf(label));
    const medians = `medians ${round(median(wallOf('stackd status')), 0)} / ${round(median(wallOf(label)), 0)} ms`;
    return figure(area, `stackd status / ${label}: wall`, round(median(ratios), 2), '×', {
      goal,
      note: spreadNote(ratios, medians),
    });
  };
  const cpuRatios = roundRatios(cpuOf('stackd status'), cpuOf('node -e 0'));
  return [
    ...[...runs.wall].map(([label, values]) =>
      figure(
        area,
        `${label}, ${processes} processes: wall (median)`,
        round(median(values), 1),
        'ms',
        {
          note: `p25–p75 ${round(percentile(values, 25), 0)}–${round(percentile(values, 75), 0)} ms`,
        },
      ),
    ),
    versus('node -e 0', { op: '<=', limit: 1.3 }),
    // CPU time swings less with the machine's load than wall time: the same ratio, for context.
    figure(area, 'stackd status / node -e 0: CPU (user+sys)', round(median(cpuRatios), 2), '×', {
      note: spreadNote(
        cpuRatios,
        `medians ${median(cpuOf('stackd status'))} / ${median(cpuOf('node -e 0'))} ms`,
      ),
    }),
    ...(runs.wall.has('pm2 ls') ? [versus('pm2 ls', { op: '<', limit: 1 })] : []),
    ...(runs.wall.has('supervisorctl status')
      ? [versus('supervisorctl status', { op: '<', limit: 1 })]
      : []),
  ];
}

export async function cliBench(
  options: CliBenchOptions,
): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const area = 'cli';
  const runs = await statusTimes(options);
  const latency = await followRun(1, 20, 500);
  const total = options.rate * options.seconds;
  const burst = await followRun(options.rate / 100, 10, total);
  const followedRate = total / burst.seconds;
  const writtenRate = total / burst.writtenSeconds;
  const figures: Figure[] = [
    ...statusFigures(area, options.processes, runs),
    figure(
      area,
      'logs -f: line to terminal p99 (50 lines/s)',
      round(percentile(latency.latencies, 99), 1),
      'ms',
      { goal: { op: '<', limit: 50 } },
    ),
    figure(
      area,
      `logs -f: lines/s the writer managed (${options.rate}/s asked)`,
      Math.round(writtenRate),
      'lines/s',
    ),
    figure(area, 'logs -f: lines/s followed', Math.round(followedRate), 'lines/s', {
      // Not falling behind: the client reads as fast as the lines were written.
      goal: { op: '>=', limit: Math.round(writtenRate * 0.95) },
    }),
    figure(
      area,
      `logs -f: behind at the end of the ${options.rate}/s run (p99 latency)`,
      round(percentile(burst.latencies, 99), 1),
      'ms',
    ),
  ];
  return {
    figures,
    details: {
      status_wall_ms: Object.fromEntries(
        [...runs.wall].map(([label, v]) => [label, v.map((x) => round(x, 1))]),
      ),
      status_cpu_ms: Object.fromEntries(runs.cpu),
      latency_p50_ms: round(percentile(latency.latencies, 50), 1),
      burst_p50_ms: round(percentile(burst.latencies, 50), 1),
      burst_seconds: round(burst.seconds, 2),
    },
  };
}
