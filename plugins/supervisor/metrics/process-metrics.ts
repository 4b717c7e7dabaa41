/**
 * The `processes` metrics collector: CPU, RSS, uptime and restarts of every supervised process,
 * summed over its whole process tree (a wrapper script's real work happens in its children).
 * All pids of all trees are read in one pass per tick (`/proc/<pid>/stat` on Linux, pidusage
 * elsewhere); the trees come from the supervisor's `pidTrees` (each launch's cgroup members;
 * the whole process table only for launches without a cgroup).
 */
import type { ProcessMetrics } from '../../../sdk/contracts/metrics-feed.js';
import {
  TurnBudget,
  type MetricsCollectorDefinition,
  type ProcessState,
  type ProcessSupervisor,
} from '../../../sdk/index.js';
import { ProcUsageReader } from '../runtime/proc-usage.js';
import type { PidTrees } from '../supervision/tree-scan.js';
import { readPids, treeOf, treeReading, type TreeReadings } from './tree-usage.js';

/** What the collector reads from the supervisor. */
export interface MetricsSource extends Pick<ProcessSupervisor, 'states'> {
  pidTrees(): Promise<PidTrees>;
}

/** Options of {@link createProcessMetricsCollector}. */
export interface ProcessMetricsOptions {
  /** Collection interval; default: the pace metrics consumers ask for. */
  readonly intervalMs?: number;
  /** Where each tick's tree usage is published for the Prometheus series. */
  readonly readings?: TreeReadings;
}

type Usage = ReadonlyMap<number, { cpu: number; memory: number } | null | undefined>;

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** Usage of every pid through pidusage (only where /proc is missing); pids gone are missing. */
async function pidusageOf(pids: readonly number[]): Promise<Usage> {
  if (pids.length === 0) return new Map();
  try {
    // Only where /proc is missing (a developer's macOS): loaded on first need.
    const { default: pidusage } = await import('pidusage');
    const stats = await pidusage([...pids]);
    return new Map(pids.map((pid) => [pid, stats[pid]]));
  } catch {
    // pidusage fails the whole call only when its single pid vanished.
    return new Map();
  }
}

/** One process's entry of the sample, summed over its tree. */
function processEntry(
  state: ProcessState,
  tree: readonly number[],
  usage: Usage,
  now: number,
): ProcessMetrics {
  let cpu = 0;
  let rss = 0;
  let count = 0;
  for (const pid of tree) {
    // pidusage answers null for a pid that went away during the sample.
    const stat = usage.get(pid);
    if (stat === undefined || stat === null) continue;
    cpu += stat.cpu;
    rss += stat.memory;
    count += 1;
  }
  const up =
    state.status === 'running' || state.status === 'starting' || state.status === 'stopping';
  return {
    process_name: state.process_name,
    status: state.status,
    pid: state.pid,
    pid_count: count,
    cpu_percent: round2(cpu),
    rss_bytes: rss,
    uptime_sec:
      up && state.started_at !== null ? round2(Math.max(0, now - state.started_at) / 1000) : null,
    restarts: state.restarts,
  };
}

/**
 * Collect one `processes` sample: `{ <process_name>: ProcessMetrics }`. It runs in turns of the
 * event loop: it starts in a turn of its own (the tick's timer also starts the other collectors,
 * whose synchronous reads would add to it) and builds the sample within the turn budget, since
 * with a thousand processes one pass held the loop for milliseconds (a tick every 15 s runs code
 * the engine never optimizes).
 */
export async function collectProcessMetrics(
  supervisor: MetricsSource,
  /** Remembers each pid's previous reading: keep one per collector. */
  reader: ProcUsageReader,
  readings?: TreeReadings,
): Promise<Record<string, ProcessMetrics>> {
  const turn = new TurnBudget();
  await turn.next();
  const states = supervisor.states();
  const byName = await supervisor.pidTrees();
  const read = await readPids(states, byName, reader);
  if (read !== null && readings !== undefined) {
    // Each tree's sums are made only for a scrape that may take them (see TreeReadings.passed).
    if (readings.wantsDescriptors()) readings.publish(await treeReading(states, byName, read));
    else readings.passed(read.at);
  }
  const trees = read?.byState ?? states.map((state) => treeOf(state, byName));
  const usage = read?.perPid ?? (await pidusageOf([...new Set(trees.flat())]));
  const now = Date.now();
  const sample: Record<string, ProcessMetrics> = {};
  for (let index = 0; index < states.length; index += 1) {
    if (turn.spent()) await turn.next();
    const state = states[index];
    if (state !== undefined)
      sample[state.process_name] = processEntry(state, trees[index] ?? [], usage, now);
  }
  return sample;
}

/** The supervisor's `processes` collector (wire it with `ctx.metrics(...)`). */
export function createProcessMetricsCollector(
  supervisor: MetricsSource,
  options: ProcessMetricsOptions = {},
): MetricsCollectorDefinition {
  const reader = new ProcUsageReader();
  return {
    name: 'processes',
    // Without an interval of its own it samples at the pace consumers ask for
    // (stackd.metrics.interval_ms while someone streams), like the system collector.
    ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
    collect: () => collectProcessMetrics(supervisor, reader, options.readings),
  };
}
