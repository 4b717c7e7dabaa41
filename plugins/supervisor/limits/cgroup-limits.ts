/**
 * Limits written to a launch's cgroup, and what the kernel reports back (OOM kills, peak). v2:
 * memory.max, memory.high, cpu.max, pids.max, memory.events. v1: memory.limit_in_bytes (and the
 * memsw limit, so swap cannot stretch it), memory.soft_limit_in_bytes, cpu.cfs_quota_us over
 * cpu.cfs_period_us, pids.max, memory.oom_control's oom_kill and memory.max_usage_in_bytes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LaunchCgroup } from '../cgroups/launch-cgroup.js';
import type { LimitSpec } from './limit-fields.js';

const CPU_PERIOD_US = 100_000;

/** How each limit is enforced, in words naming "cgroup" or "watch" (null: not set). */
export interface Enforcement {
  readonly memory_max: string | null;
  readonly memory_high: string | null;
  readonly cpu_max: string | null;
  readonly pids_max: string | null;
}

async function write(dir: string | undefined, file: string, value: string): Promise<boolean> {
  if (dir === undefined) return false;
  return writeFile(join(dir, file), value).then(
    () => true,
    () => false,
  );
}

type Write = [controller: string, file: string, value: string];

function v2Writes(limits: LimitSpec): Record<keyof Enforcement, Write[]> {
  const quota = (cores: number) =>
    `${Math.max(1000, Math.round(cores * CPU_PERIOD_US))} ${CPU_PERIOD_US}`;
  return {
    memory_max:
      limits.memoryMax === null ? [] : [['memory', 'memory.max', String(limits.memoryMax)]],
    memory_high:
      limits.memoryHigh === null ? [] : [['memory', 'memory.high', String(limits.memoryHigh)]],
    cpu_max: limits.cpuMax === null ? [] : [['cpu', 'cpu.max', quota(limits.cpuMax)]],
    pids_max: limits.pidsMax === null ? [] : [['pids', 'pids.max', String(limits.pidsMax)]],
  };
}

function v1Writes(limits: LimitSpec): Record<keyof Enforcement, Write[]> {
  const quota = (cores: number) => String(Math.max(1000, Math.round(cores * CPU_PERIOD_US)));
  return {
    memory_max:
      limits.memoryMax === null
        ? [['memory', 'memory.limit_in_bytes', '-1']]
        : [['memory', 'memory.limit_in_bytes', String(limits.memoryMax)]],
    memory_high: [
      [
        'memory',
        'memory.soft_limit_in_bytes',
        limits.memoryHigh === null ? '-1' : String(limits.memoryHigh),
      ],
    ],
    cpu_max: [
      ['cpu', 'cpu.cfs_period_us', String(CPU_PERIOD_US)],
      ['cpu', 'cpu.cfs_quota_us', limits.cpuMax === null ? '-1' : quota(limits.cpuMax)],
    ],
    pids_max: [['pids', 'pids.max', limits.pidsMax === null ? 'max' : String(limits.pidsMax)]],
  };
}

const WATCHED = 'watch: cgroups not writable';

function describe(
  cgroup: LaunchCgroup | null,
  controller: string,
  ok: boolean,
  why: string,
): string {
  if (cgroup !== null && ok) return cgroup.kind === 'v2' ? 'cgroup v2' : `cgroup v1 ${controller}`;
  return why;
}

/**
 * Only the writes of limits that are set: a cgroup just made has the kernel's defaults (no
 * limit), so writing "no limit" into it is five file writes per launch for nothing.
 */
function setOnly(
  writes: Record<keyof Enforcement, Write[]>,
  limits: LimitSpec,
): Record<keyof Enforcement, Write[]> {
  return {
    memory_max: limits.memoryMax === null ? [] : writes.memory_max,
    memory_high: limits.memoryHigh === null ? [] : writes.memory_high,
    cpu_max: limits.cpuMax === null ? [] : writes.cpu_max,
    pids_max: limits.pidsMax === null ? [] : writes.pids_max,
  };
}

function writesOf(
  cgroup: LaunchCgroup | null,
  limits: LimitSpec,
  fresh: boolean,
): Record<keyof Enforcement, Write[]> | null {
  if (cgroup === null) return null;
  const writes = cgroup.kind === 'v2' ? v2Writes(limits) : v1Writes(limits);
  return fresh ? setOnly(writes, limits) : writes;
}

/**
 * Write `limits` into `cgroup` (also to lift ones removed at run time, unless the cgroup is
 * `fresh`: just made, without any limit yet) and say how each is enforced. `noCgroupWhy` names
 * why there is no cgroup ("watch: cgroups off by config").
 */
export async function applyLimits(
  cgroup: LaunchCgroup | null,
  limits: LimitSpec,
  noCgroupWhy = WATCHED,
  fresh = false,
): Promise<Enforcement> {
  const plan = writesOf(cgroup, limits, fresh);
  const result: Record<string, string | null> = {};
  for (const key of ['memory_max', 'memory_high', 'cpu_max', 'pids_max'] as const) {
    let ok = plan !== null;
    for (const [controller, file, value] of plan?.[key] ?? [])
      ok = (await write(cgroup?.dirOf(controller), file, value)) && ok;
    const set = {
      memory_max: limits.memoryMax,
      memory_high: limits.memoryHigh,
      cpu_max: limits.cpuMax,
      pids_max: limits.pidsMax,
    }[key];
    const controller = key.startsWith('memory') ? 'memory' : key === 'cpu_max' ? 'cpu' : 'pids';
    // memory_high under v1 is only a reclaim hint: stackd watches usage to warn about it.
    const how =
      key === 'memory_high' && cgroup?.kind === 'v1'
        ? 'watch: v1 has no high limit (soft limit set)'
        : describe(
            cgroup,
            controller,
            ok,
            cgroup === null ? noCgroupWhy : `watch: cgroup ${controller} not writable`,
          );
    result[key] = set === null ? null : how;
  }
  if (cgroup?.kind === 'v1' && limits.memoryMax !== null)
    await write(cgroup.dirOf('memory'), 'memory.memsw.limit_in_bytes', String(limits.memoryMax));
  return result as unknown as Enforcement;
}

async function readText(dir: string | undefined, file: string): Promise<string> {
  if (dir === undefined) return '';
  return readFile(join(dir, file), 'utf8').catch(() => '');
}

/** OOM kills the kernel made in the cgroup so far. */
export async function oomKills(cgroup: LaunchCgroup): Promise<number> {
  const file = cgroup.kind === 'v2' ? 'memory.events' : 'memory.oom_control';
  const match = /^oom_kill (\d+)$/m.exec(await readText(cgroup.dirOf('memory'), file));
  return match === null ? 0 : Number(match[1]);
}

/** The peak memory of the cgroup in bytes, or null where the kernel does not say. */
export async function memoryPeak(cgroup: LaunchCgroup): Promise<number | null> {
  const file = cgroup.kind === 'v2' ? 'memory.peak' : 'memory.max_usage_in_bytes';
  const value = Number.parseInt(await readText(cgroup.dirOf('memory'), file), 10);
  return Number.isFinite(value) ? value : null;
}

/** Current memory of the cgroup in bytes, or null. */
export async function memoryCurrent(cgroup: LaunchCgroup): Promise<number | null> {
  const file = cgroup.kind === 'v2' ? 'memory.current' : 'memory.usage_in_bytes';
  const value = Number.parseInt(await readText(cgroup.dirOf('memory'), file), 10);
  return Number.isFinite(value) ? value : null;
}
