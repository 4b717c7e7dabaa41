/**
 * The floors of the scale series, started and restarted at each size in the same run as the
 * supervisors: the supervision bench's bare spawn loop (one Node process spawning every `sleep`
 * with piped output, "running" meaning the `spawn` event) — the goal's floor — and the launch
 * floor (launch-floor.ts: the same plus the work every stackd launch must do: cgroups, output
 * FIFOs, the durable launch record), which splits stackd's distance to the spawn loop into what
 * that work costs and what is stackd's own.
 */
import { join } from 'node:path';
import { BENCH_DIR } from '../lib/children.js';
import { cpuMs } from '../lib/proc-sample.js';
import { agentSubject } from '../supervision/agent-subject.js';

/**
 * Which floor: the bare spawn loop, the launch floor, or the spawn loop grown to stackd's RSS at
 * that size (measured after stackd's row): what a fork of a process that large costs.
 */
export type FloorKind = 'spawn' | 'launch' | 'sized';

const SCRIPTS: Record<FloorKind, string> = {
  spawn: 'spawn-floor.js',
  launch: 'launch-floor.js',
  sized: 'spawn-floor.js',
};

/** A floor's start all and restart all at one size. */
export interface FloorRow {
  /** Absent in results written before the launch floor was measured: the spawn loop. */
  readonly kind?: FloorKind;
  readonly processes: number;
  /** The loop's RSS grown to this before it started (the spawn loop at stackd's size). */
  readonly rss_mib?: number;
  readonly start_ms: number;
  readonly restart_ms: number;
  /** The floor process's own CPU during start all and restart all. */
  readonly start_cpu_ms?: number;
  readonly restart_cpu_ms?: number;
}

/** How a floor is named in figures and tables. */
export function floorLabel(floor: FloorRow): string {
  if (floor.kind === 'launch') return 'launch floor';
  if (floor.kind === 'sized') return `spawn floor at ${floor.rss_mib ?? '?'} MiB`;
  return 'spawn floor';
}

/**
 * Start and restart `count` copies of `command` in floor `kind` (grown to `rssMib` first when
 * given), then stop them.
 */
export async function measureFloor(
  kind: FloorKind,
  count: number,
  command: readonly string[],
  rssMib?: number,
): Promise<FloorRow> {
  const label = `${kind} floor`;
  const cpu = (): number => cpuMs(subject.supervisorPid);
  const subject = await agentSubject(
    label,
    join(BENCH_DIR, 'supervision', SCRIPTS[kind]),
    count,
    command,
    process.env,
    rssMib === undefined ? [] : [String(rssMib)],
  );
  try {
    const beforeStart = cpu();
    const start = await subject.startAll();
    const startCpu = cpu() - beforeStart;
    if (start.pids.length !== count) throw new Error(`${label}: not all ${count} started`);
    const beforeRestart = cpu();
    const restart = await subject.restartAll();
    const restartCpu = cpu() - beforeRestart;
    if (restart.pids.length !== count) throw new Error(`${label}: not all ${count} restarted`);
    return {
      kind,
      processes: count,
      ...(rssMib === undefined ? {} : { rss_mib: rssMib }),
      start_ms: start.ms,
      restart_ms: restart.ms,
      start_cpu_ms: startCpu,
      restart_cpu_ms: restartCpu,
    };
  } finally {
    await subject.close();
  }
}
