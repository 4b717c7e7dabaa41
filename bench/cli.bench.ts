/**
 * The terminal client (`npm run bench -- --only cli`):
 * - `stackd status` wall time, exec to exit, with 50 supervised processes, against `node -e 0`
 *   (the floor of any Node program), `pm2 ls` and `supervisorctl status` with the same 50
 *   programs. Runs are interleaved per round; medians are compared.
 * - `stackd logs -f`: how long a printed line takes to reach the client's stdout (p99), and
 *   whether 10,000 lines/s are followed without falling behind.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startPm2, startSupervisord, type Peer } from './cli-peers.js';
import { track, untrack } from './lib/cleanup.js';
import { BENCH_DIR } from './lib/children.js';
import { processBlocks, startBenchHost, stopHost } from './lib/host.js';
import { figure, type Figure } from './lib/report.js';
import { median, percentile, ratio, round } from './lib/stats.js';
import { waitFor } from './lib/wait.js';

const BIN = join(BENCH_DIR, '..', 'cli', 'bin.cjs');

export interface CliBenchOptions {
  readonly processes: number;
  readonly rounds: number;
  /** Lines per second of the throughput run, for `seconds`. */
  readonly rate: number;
  readonly seconds: number;
}

function wallMs(command: readonly string[], env: Record<string, string>): number {
  const [program, ...args] = command as [string, ...string[]];
  const started = performance.now();
  const result = spawnSync(program, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
  const elapsed = performance.now() - started;
  if (result.error !== undefined) throw result.error;
  return elapsed;
}

/** A program printing `<epoch ms> <n>` lines: `perTick` lines every `tickMs`, `total` in all. */
function emitterCommand(perTick: number, tickMs: number, total: number): string[] {
  const script =
    `let n=0;const t=setInterval(()=>{let s='';for(let i=0;i<${perTick}&&n<${total};i++)` +
    `s+=(performance.timeOrigin+performance.now()).toFixed(3)+' '+(n++)+'\\n';` +
    `process.stdout.write(s);if(n>=${total})clearInterval(t)},${tickMs})`;
  return [process.execPath, '-e', script];
}

async function statusTimes(options: CliBenchOptions) {
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
    const samples = new Map(subjects.map((subject) => [subject.label, [] as number[]]));
    for (let round = 0; round < options.rounds; round += 1)
      for (const subject of subjects)
        samples.get(subject.label)?.push(wallMs(subject.command, subject.env));
    return new Map([...samples].map(([label, values]) => [label, median(values)]));
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

export async function cliBench(
  options: CliBenchOptions,
): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const area = 'cli';
  const times = await statusTimes(options);
  const of = (label: string): number => times.get(label) ?? Number.NaN;
  const latency = await followRun(1, 20, 500);
  const total = options.rate * options.seconds;
  const burst = await followRun(options.rate / 100, 10, total);
  const followedRate = total / burst.seconds;
  const writtenRate = total / burst.writtenSeconds;
  const figures: Figure[] = [
    ...[...times].map(([label, value]) =>
      figure(area, `${label}, ${options.processes} processes: wall`, round(value, 1), 'ms'),
    ),
    figure(area, 'stackd status / node -e 0', ratio(of('stackd status'), of('node -e 0')), '×', {
      goal: { op: '<=', limit: 1.3 },
    }),
    figure(area, 'stackd status / pm2 ls', ratio(of('stackd status'), of('pm2 ls')), '×', {
      goal: { op: '<', limit: 1 },
    }),
    ...(times.has('supervisorctl status')
      ? [
          figure(
            area,
            'stackd status / supervisorctl status',
            ratio(of('stackd status'), of('supervisorctl status')),
            '×',
            { goal: { op: '<', limit: 1 } },
          ),
        ]
      : []),
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
      status_median_ms: Object.fromEntries(times),
      latency_p50_ms: round(percentile(latency.latencies, 50), 1),
      burst_p50_ms: round(percentile(burst.latencies, 50), 1),
      burst_seconds: round(burst.seconds, 2),
    },
  };
}
