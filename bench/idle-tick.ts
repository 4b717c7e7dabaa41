/**
 * `node dist/bench/idle-tick.js [PROCESSES] [TICKS]`: the idle metrics tick's own work, in this
 * process, with the host's V8 settings: the supervisor's `processes` collector reading
 * PROCESSES (default 1,000) sleeping children through /proc, the metrics plugin's checked view
 * of the sample and the history row (payload and series), TICKS (default 100) times, 20 ms
 * apart, after 10 ticks of warm-up. Prints, as JSON with the load average, the CPU per tick
 * (user and system, every thread: the deflate runs on libuv's pool) and the scavenges and
 * collection time per tick. The trees are one pid each and are not read from cgroups (that
 * kernel cost is the same whatever the JavaScript does). To compare two builds, run each
 * build's copy of this file in turn, several times (docs/performance-scale.md, "The idle tick
 * at 1,000").
 */
// First, as in the host's entry: its V8 settings, then the program. Given after the program's
// modules are loaded (or on the command line), the young generation has grown past its first
// 1 MiB by then and a tick's scavenges are not the host's.
import '../host/v8-settings.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProcessState } from '../sdk/index.js';

const { snapshotView } = await import('../plugins/metrics/metrics-feed-service.js');
const { encodeSnapshotInTurns, SeriesPieces } =
  await import('../plugins/metrics/history/snapshot-encoding.js');
const { collectProcessMetrics } = await import('../plugins/supervisor/metrics/process-metrics.js');
const { TreeReadings } = await import('../plugins/supervisor/metrics/tree-usage.js');
const { ProcUsageReader } = await import('../plugins/supervisor/runtime/proc-usage.js');
const { snapshotAt } = await import('../test/plugins/metrics/snapshot-factory.js');
const { round } = await import('./lib/stats.js');

const count = Number(process.argv[2] ?? 1000);
const ticks = Number(process.argv[3] ?? 100);

const children: ChildProcess[] = [];
for (let index = 0; index < count; index += 1)
  children.push(spawn('sleep', ['100000'], { stdio: 'ignore' }));
try {
  await sleep(2000);
  const started = Date.now() - 60_000;
  const states: ProcessState[] = children.map((child, index) => ({
    process_name: `Bench ${index}`,
    status: 'running',
    pid: child.pid ?? null,
    exit_code: null,
    restarts: 0,
    started_at: started,
    reason: null,
  }));
  const trees = new Map(states.map((state) => [state.process_name, [state.pid ?? 0]]));
  // The supervisor hands out a copy of each state at every call.
  const source = {
    states: () => states.map((state) => ({ ...state })),
    pidTrees: () => Promise.resolve(trees),
  };
  const reader = new ProcUsageReader();
  const readings = new TreeReadings();
  const pieces = new SeriesPieces();
  const system = snapshotAt(Date.now()).system;
  const tick = async (): Promise<void> => {
    const sample = await collectProcessMetrics(source, reader, readings);
    const view = await snapshotView({
      timestamp: new Date().toISOString(),
      collectors: { system: { ...system }, processes: sample },
    });
    await encodeSnapshotInTurns(view, undefined, pieces);
  };
  let scavenges = 0;
  let collections = 0;
  let collectionMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      collections += 1;
      collectionMs += entry.duration;
      // A gc entry's detail names its kind (a scavenge is NODE_PERFORMANCE_GC_MINOR).
      const { detail } = entry as { detail?: { kind?: number } };
      if (detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges += 1;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  for (let index = 0; index < 10; index += 1) await tick();
  await sleep(200);
  const before = { scavenges, collections, collectionMs };
  const cpu = process.cpuUsage();
  for (let index = 0; index < ticks; index += 1) {
    await tick();
    await sleep(20);
  }
  const used = process.cpuUsage(cpu);
  observer.disconnect();
  reader.close();
  const perTick = (value: number): number => round(value / ticks, 2);
  console.log(
    JSON.stringify({
      processes: count,
      ticks,
      cpu_ms_per_tick: perTick((used.user + used.system) / 1000),
      user_ms_per_tick: perTick(used.user / 1000),
      system_ms_per_tick: perTick(used.system / 1000),
      scavenges_per_tick: perTick(scavenges - before.scavenges),
      collections_per_tick: perTick(collections - before.collections),
      collection_ms_per_tick: perTick(collectionMs - before.collectionMs),
      load: loadavg().map((value) => round(value, 1)),
    }),
  );
} finally {
  for (const child of children) child.kill('SIGKILL');
}
