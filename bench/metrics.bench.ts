/**
 * Metrics benchmarks (prints one JSON object):
 * 1. CPU time of one collection tick: the system collector + the per-process collector over 50
 *    sleeping node processes (trees resolved from one /proc scan as the supervisor does, one pidusage call).
 * 2. Idle CPU of those collectors ticking every 2 s for 10 s (percent of one core).
 * 3. Fan-out: the real host with the metrics plugin, 1,000 undici WebSocket clients (spread over
 *    worker threads), delivery latency
 *    of each frame (client receipt − the snapshot's timestamp), p50/p99 over several ticks.
 * Goals: tick < 15 ms CPU; idle < 1%; fan-out p99 < 50 ms.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'undici';
import { SystemCollector } from '../plugins/metrics/system/system-collector.js';
import { collectProcessMetrics } from '../plugins/supervisor/process-metrics.js';
import { liveTree, readProcTable } from '../plugins/supervisor/runtime/proc-table.js';
import type { ProcessState, ProcessSupervisor } from '../sdk/index.js';
import { startHost } from '../test/helpers/start-host.js';

const PROCESS_COUNT = 50;
const CLIENTS = Number(process.env.BENCH_METRICS_CLIENTS ?? 1000);
const WORKERS = Number(process.env.BENCH_METRICS_CLIENT_THREADS ?? 4);
const MEASURED_TICKS = 5;
const here = dirname(fileURLToPath(import.meta.url));
const PLUGIN = join(here, '..', 'plugins', 'metrics', 'index.js');

const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
const summary = (values: readonly number[]) => ({
  mean: Number((values.reduce((a, b) => a + b, 0) / values.length).toFixed(2)),
  p50: Number(percentile(values, 50).toFixed(2)),
  p99: Number(percentile(values, 99).toFixed(2)),
  max: Number(Math.max(...values).toFixed(2)),
});

/** CPU time (user + system) a process used so far, from /proc/<pid>/stat (clock ticks of 10 ms). */
function processCpuMs(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function spawnSleepers(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' }),
  );
}

function supervisorOver(children: readonly ChildProcess[]): ProcessSupervisor {
  const states: ProcessState[] = children.map((child, index) => ({
    process_name: `Sleeper ${index}`,
    status: 'running',
    pid: child.pid ?? null,
    exit_code: null,
    restarts: 0,
    started_at: Date.now(),
    reason: null,
  }));
  const unused = (): never => {
    throw new Error('unused');
  };
  return {
    list: () => [],
    find: () => undefined,
    states: () => states,
    state: (name) => states.find((state) => state.process_name === name),
    pidTree: (name) => {
      const pid = states.find((state) => state.process_name === name)?.pid ?? null;
      return pid === null
        ? Promise.resolve([])
        : readProcTable().then((table) => liveTree(table ?? [], pid));
    },
    logFile: () => null,
    start: unused,
    stop: unused,
    restart: unused,
    launch: unused,
    addStartPreparer: unused,
  };
}

async function collectionBench(): Promise<Record<string, unknown>> {
  const children = spawnSleepers(PROCESS_COUNT);
  try {
    await sleep(1500); // let the node processes finish booting
    const supervisor = supervisorOver(children);
    const system = new SystemCollector({
      filesystemPaths: ['/', here],
      networkInterfaces: ['all'],
      scope: 'auto',
    });
    const tick = () => Promise.all([system.collect(), collectProcessMetrics(supervisor)]);
    for (let index = 0; index < 3; index += 1) await tick();
    const ticks: number[] = [];
    const systemOnly: number[] = [];
    const processesOnly: number[] = [];
    const walls: number[] = [];
    for (let index = 0; index < 20; index += 1) {
      await sleep(300); // real ticks are 2 s apart: the 250 ms parent-table cache never helps
      let start = cpuMs();
      const wall = performance.now();
      const [, processes] = await tick();
      walls.push(performance.now() - wall);
      ticks.push(cpuMs() - start);
      if (Object.keys(processes).length !== PROCESS_COUNT) throw new Error('missing processes');
      await sleep(300);
      start = cpuMs();
      await system.collect();
      systemOnly.push(cpuMs() - start);
      await sleep(300);
      start = cpuMs();
      await collectProcessMetrics(supervisor);
      processesOnly.push(cpuMs() - start);
    }
    // Idle: the two collectors on a 2 s timer, nothing else in this process, for 10 s.
    const idleStart = cpuMs();
    const idleWall = performance.now();
    const timer = setInterval(() => void tick(), 2000);
    await sleep(10_000);
    clearInterval(timer);
    const idlePercent = ((cpuMs() - idleStart) / (performance.now() - idleWall)) * 100;
    return {
      processes: PROCESS_COUNT,
      tick_cpu_ms: summary(ticks),
      tick_wall_ms: summary(walls),
      system_only_cpu_ms: summary(systemOnly),
      processes_only_cpu_ms: summary(processesOnly),
      idle_cpu_percent_at_2s: Number(idlePercent.toFixed(3)),
    };
  } finally {
    for (const child of children) if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
  }
}

/** Delivery latency per tick, keyed by the snapshot's timestamp. */
type Latencies = Map<string, number[]>;

async function openClient(url: string, latencies: Latencies): Promise<WebSocket> {
  const socket = new WebSocket(url);
  let first = true;
  socket.addEventListener('message', (event) => {
    const received = Date.now();
    if (first) {
      first = false; // the frame on connect is not a tick
      return;
    }
    const text = typeof event.data === 'string' ? event.data : '';
    const stamp = /"taken_at":"([^"]+)"/.exec(text)?.[1];
    if (stamp === undefined) return;
    const tick = latencies.get(stamp) ?? [];
    tick.push(received - Date.parse(stamp));
    latencies.set(stamp, tick);
  });
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('socket error')), { once: true });
  });
  return socket;
}

/**
 * A worker thread holding a share of the clients: parsing 1,000 frames in one event loop takes
 * tens of ms by itself, which would measure the benchmark's clients rather than the server.
 */
async function clientWorker(): Promise<void> {
  const { url, count } = workerData as { url: string; count: number };
  const latencies: Latencies = new Map();
  const sockets: WebSocket[] = [];
  // Open in batches of 50 (a handshake storm of 1,000 at once only measures the kernel).
  for (let index = 0; index < count; index += 50) {
    const batch = Array.from({ length: Math.min(50, count - index) }, () =>
      openClient(url, latencies),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  parentPort?.postMessage({ kind: 'ready' });
  parentPort?.once('message', () => {
    for (const socket of sockets) socket.close();
    parentPort?.postMessage({ kind: 'report', latencies: [...latencies.entries()] });
  });
}

async function fanOutBench(): Promise<Record<string, unknown>> {
  const host = await startHost({
    plugins: [PLUGIN],
    config: { stackd: { metrics: { interval_ms: 2000, history_enabled: false } } },
    // Production settings: response and message validation is a test-suite check.
    env: { STACKD_VALIDATE_RESPONSES: '0' },
  });
  const workers: Worker[] = [];
  try {
    const url = `${host.url.replace('http', 'ws')}/ws/metrics?interval=0.5`;
    for (let index = 0; index < WORKERS; index += 1) {
      const count = Math.floor(CLIENTS / WORKERS) + (index < CLIENTS % WORKERS ? 1 : 0);
      workers.push(new Worker(fileURLToPath(import.meta.url), { workerData: { url, count } }));
    }
    await Promise.all(
      workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))),
    );
    const measureFrom = new Date().toISOString();
    const hostCpuBefore = processCpuMs(host.child.pid);
    const windowStart = performance.now();
    await sleep(MEASURED_TICKS * 2000 + 1000);
    const hostCpuPercent =
      ((processCpuMs(host.child.pid) - hostCpuBefore) / (performance.now() - windowStart)) * 100;
    const reports = await Promise.all(
      workers.map(
        (worker) =>
          new Promise<[string, number[]][]>((resolve) => {
            worker.once('message', (message: { latencies: [string, number[]][] }) =>
              resolve(message.latencies),
            );
            worker.postMessage('report');
          }),
      ),
    );
    const merged: Latencies = new Map();
    for (const [stamp, values] of reports.flat())
      merged.set(stamp, [...(merged.get(stamp) ?? []), ...values]);
    const ticks = [...merged.entries()]
      .filter(([stamp, values]) => stamp > measureFrom && values.length === CLIENTS)
      .map(([, values]) => values);
    const all = ticks.flat();
    const snapshot = await fetch(`${host.url}/metrics`).then((response) => response.text());
    return {
      clients: CLIENTS,
      client_threads: WORKERS,
      ticks_measured: ticks.length,
      frame_bytes: Buffer.byteLength(snapshot) + '{"type":"snapshot","data":}'.length,
      latency_ms: all.length > 0 ? summary(all) : null,
      host_cpu_percent_while_streaming: Number(hostCpuPercent.toFixed(2)),
      per_tick: ticks.map((tick) => ({
        first: Math.min(...tick),
        p50: percentile(tick, 50),
        p99: percentile(tick, 99),
      })),
      note: "latency = client receipt - snapshot timestamp (ms clock), so it includes serialization, the send loop, the kernel and the clients' own parsing",
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
    await host.stop();
  }
}

if (isMainThread) {
  const load = loadavg();
  const only = process.env.BENCH_METRICS_ONLY;
  const collection = only === 'fan-out' ? null : await collectionBench();
  const fanOut = only === 'collection' ? null : await fanOutBench();
  console.log(
    JSON.stringify(
      { benchmark: 'metrics', load_avg_at_start: load, collection, fan_out: fanOut },
      null,
      2,
    ),
  );
  process.exit(0);
} else {
  await clientWorker();
}
