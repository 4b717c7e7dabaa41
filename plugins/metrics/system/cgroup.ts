/**
 * The container's own cgroup (v2 unified or v1 hierarchies): memory and CPU limits and usage,
 * so a container with a 2 GiB limit reports 90% when it uses 1.8 GiB rather than 7% of the host.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { readProcFile } from './read-proc-file.js';
import { parseIoStat, parseKeyValueLines, type DiskCounters } from './proc-parsers.js';

/** One reading of the cgroup files; null where a file is missing or says "no limit". */
export interface CgroupReading {
  readonly memoryLimitBytes: number | null;
  readonly memoryUsedBytes: number | null;
  /** CPUs the quota allows (quota / period), or null without a quota. */
  readonly cpuLimit: number | null;
  /** Cumulative CPU time of the cgroup in microseconds. */
  readonly cpuUsageMicros: number | null;
  /** cgroup v2 io.stat sums, or null. */
  readonly io: DiskCounters | null;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** A number, or null for "max", blanks and the v1 "unlimited" sentinel (≥ 2^62). */
export function parseLimit(text: string | null): number | null {
  if (text === null) return null;
  const value = Number(text.trim());
  if (text.trim() === 'max' || !Number.isFinite(value) || value < 0 || value >= 2 ** 62)
    return null;
  return value;
}

/** Memory in use without reclaimable page cache (what `docker stats` shows). */
function usedWithoutCache(usage: number | null, stat: string | null, key: string): number | null {
  if (usage === null) return null;
  const inactive = stat === null ? 0 : (parseKeyValueLines(stat).get(key) ?? 0);
  return Math.max(0, usage - inactive);
}

/** Reads one cgroup hierarchy. */
export class CgroupReader {
  private constructor(
    private readonly root: string,
    private readonly version: 1 | 2,
  ) {}

  /** The reader for `root` (default `/sys/fs/cgroup`), or null when there is no cgroup fs. */
  static async detect(root = '/sys/fs/cgroup'): Promise<CgroupReader | null> {
    if (await exists(join(root, 'cgroup.controllers'))) return new CgroupReader(root, 2);
    if (await exists(join(root, 'memory', 'memory.usage_in_bytes')))
      return new CgroupReader(root, 1);
    return null;
  }

  /** Read the current figures (synchronous: cgroup files are kernel-generated, like /proc). */
  read(): CgroupReading {
    return this.version === 2 ? this.readV2() : this.readV1();
  }

  private readV2(): CgroupReading {
    const file = (name: string) => readProcFile(join(this.root, name));
    const [memoryMax, memoryCurrent, memoryStat, cpuMax, cpuStat, ioStat] = [
      file('memory.max'),
      file('memory.current'),
      file('memory.stat'),
      file('cpu.max'),
      file('cpu.stat'),
      file('io.stat'),
    ];
    const [quota, period] = (cpuMax ?? 'max').trim().split(/\s+/);
    const quotaValue = parseLimit(quota ?? null);
    const periodValue = Number(period);
    return {
      memoryLimitBytes: parseLimit(memoryMax),
      memoryUsedBytes: usedWithoutCache(parseLimit(memoryCurrent), memoryStat, 'inactive_file'),
      cpuLimit: quotaValue !== null && periodValue > 0 ? quotaValue / periodValue : null,
      cpuUsageMicros:
        cpuStat === null ? null : (parseKeyValueLines(cpuStat).get('usage_usec') ?? null),
      io: ioStat === null ? null : parseIoStat(ioStat),
    };
  }

  private readV1(): CgroupReading {
    const file = (...parts: string[]) => readProcFile(join(this.root, ...parts));
    const [limit, usage, stat, quota, period, cpuUsage] = [
      file('memory', 'memory.limit_in_bytes'),
      file('memory', 'memory.usage_in_bytes'),
      file('memory', 'memory.stat'),
      file('cpu', 'cpu.cfs_quota_us'),
      file('cpu', 'cpu.cfs_period_us'),
      file('cpuacct', 'cpuacct.usage'),
    ];
    const quotaValue = parseLimit(quota);
    const periodValue = Number(period);
    const usageNanos = parseLimit(cpuUsage);
    return {
      memoryLimitBytes: parseLimit(limit),
      memoryUsedBytes: usedWithoutCache(parseLimit(usage), stat, 'total_inactive_file'),
      cpuLimit: quotaValue !== null && periodValue > 0 ? quotaValue / periodValue : null,
      cpuUsageMicros: usageNanos === null ? null : usageNanos / 1000,
      io: null,
    };
  }
}
