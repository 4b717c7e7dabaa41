/**
 * The `system` collector: CPU, load, memory, swap, filesystems, disk and network IO from /proc,
 * statfs and the cgroup files, with rates against the previous reading. Off Linux (no /proc) it
 * falls back to `node:os` for CPU, memory and load and reports no IO.
 */
import { cpus, freemem, loadavg, totalmem, uptime, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { readProcFile } from './read-proc-file.js';
import type {
  DiskIoMetrics,
  FilesystemMetrics,
  NetworkMetrics,
  SystemMetrics,
} from '../../../sdk/contracts/metrics-feed.js';
import { linkInfo } from './interface-candidates.js';
import { mountHolding, parseMounts, type MountEntry } from './mount-candidates.js';
import { ratePerSecond } from '../rates.js';
import { listCountedDisks } from './block-devices.js';
import { CgroupReader, type CgroupReading } from './cgroup.js';
import { filesystemUsage } from './filesystems.js';
import { networkMetrics } from './network.js';
import {
  parseDiskstats,
  parseLoadavg,
  parseMeminfo,
  parseNetDev,
  parseProcStat,
  type CpuTimes,
  type DiskCounters,
  type InterfaceCounters,
  type MemInfo,
} from './proc-parsers.js';

/** What the collector measures and where it reads (the roots exist for tests). */
export interface SystemCollectorOptions {
  readonly filesystemPaths: readonly string[];
  readonly networkInterfaces: readonly string[];
  /** `auto`: the cgroup's figures when it sets a memory or CPU limit. */
  readonly scope: 'auto' | 'host' | 'cgroup';
  readonly procRoot?: string;
  readonly cgroupRoot?: string;
  readonly sysBlockRoot?: string;
  readonly sysNetRoot?: string;
}

/** Mount table and link state change rarely: re-read at most this often, not every tick. */
const SLOW_INFO_TTL_MS = 30_000;

interface Reading {
  readonly at: number;
  readonly cpu: CpuTimes | null;
  readonly cgroupCpuMicros: number | null;
  readonly disk: DiskCounters | null;
  readonly network: Map<string, InterfaceCounters> | null;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;
const clampPercent = (value: number): number => round2(Math.min(100, Math.max(0, value)));

/** Aggregate CPU times from `os.cpus()` (off Linux), in the same busy/total form. */
function osCpuTimes(): CpuTimes {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const sum = times.user + times.nice + times.sys + times.idle + times.irq;
    total += sum;
    busy += sum - times.idle;
  }
  return { busy, total };
}

/** Collects system samples; keeps the previous reading for rates. */
export class SystemCollector {
  private previous: Reading | undefined;
  private disks: Promise<Set<string>> | undefined;
  private cgroup: Promise<CgroupReader | null> | undefined;
  private readonly proc: string;
  private readonly links = new Map<
    string,
    { is_up: boolean; speed_mbps: number | null; mtu: number | null }
  >();
  private linksReadAt = Number.NEGATIVE_INFINITY;
  private mounts: MountEntry[] | undefined;
  private mountsReadAt = Number.NEGATIVE_INFINITY;

  constructor(private options: SystemCollectorOptions) {
    this.proc = options.procRoot ?? '/proc';
  }

  /** Measure other filesystems and interfaces from the next sample on (a settings change). */
  select(filesystemPaths: readonly string[], networkInterfaces: readonly string[]): void {
    this.options = { ...this.options, filesystemPaths, networkInterfaces };
  }

  async collect(): Promise<SystemMetrics> {
    this.disks ??= listCountedDisks(this.options.sysBlockRoot);
    this.cgroup ??=
      this.options.scope === 'host'
        ? Promise.resolve(null)
        : CgroupReader.detect(this.options.cgroupRoot);
    // statfs stays asynchronous: a hung network mount must not stall the event loop.
    const filesystemsRead = Promise.all(this.options.filesystemPaths.map(filesystemUsage));
    const [disks, reader] = await Promise.all([this.disks, this.cgroup]);
    const cgroup = reader?.read() ?? null;
    const stat = readProcFile(join(this.proc, 'stat'));
    const meminfo = readProcFile(join(this.proc, 'meminfo'));
    const load = readProcFile(join(this.proc, 'loadavg'));
    const diskstats = readProcFile(join(this.proc, 'diskstats'));
    const netdev = readProcFile(join(this.proc, 'net', 'dev'));
    const procUptime = readProcFile(join(this.proc, 'uptime'));
    const filesystems = this.withMounts(await filesystemsRead);
    const hostMemory: MemInfo =
      meminfo === null
        ? {
            totalBytes: totalmem(),
            availableBytes: freemem(),
            swapTotalBytes: 0,
            swapFreeBytes: 0,
          }
        : parseMeminfo(meminfo);
    const hostCpus = availableParallelism();
    const limited = cgroup !== null && this.isLimited(cgroup, hostMemory, hostCpus);
    const useCgroup = this.options.scope === 'cgroup' ? cgroup !== null : limited;

    const reading: Reading = {
      at: performance.now(),
      cpu: stat === null ? osCpuTimes() : parseProcStat(stat),
      cgroupCpuMicros: cgroup?.cpuUsageMicros ?? null,
      disk:
        useCgroup && cgroup?.io !== null && cgroup?.io !== undefined
          ? cgroup.io
          : diskstats === null
            ? null
            : parseDiskstats(diskstats, disks),
      network: netdev === null ? null : parseNetDev(netdev),
    };
    const previous = this.previous;
    this.previous = reading;
    const elapsedSec = previous === undefined ? 0 : (reading.at - previous.at) / 1000;
    const cpuLimit =
      useCgroup && cgroup?.cpuLimit != null ? Math.min(cgroup.cpuLimit, hostCpus) : null;

    return {
      scope: useCgroup ? 'cgroup' : 'host',
      cpu_percent: this.cpuPercent(reading, previous, elapsedSec, cpuLimit),
      cpu_count: cpuLimit ?? hostCpus,
      load_avg: load === null ? loadavg() : parseLoadavg(load),
      memory: this.memory(hostMemory, useCgroup ? cgroup : null),
      swap: {
        total_bytes: hostMemory.swapTotalBytes,
        used_bytes: hostMemory.swapTotalBytes - hostMemory.swapFreeBytes,
        percent:
          hostMemory.swapTotalBytes > 0
            ? clampPercent(
                ((hostMemory.swapTotalBytes - hostMemory.swapFreeBytes) /
                  hostMemory.swapTotalBytes) *
                  100,
              )
            : 0,
      },
      filesystems,
      disk_io: reading.disk === null ? null : diskIo(reading.disk, previous?.disk, elapsedSec),
      network:
        reading.network === null ? null : this.network(reading.network, previous, elapsedSec),
      uptime_sec:
        procUptime === null ? uptime() : Number.parseFloat(procUptime.split(' ')[0] ?? '0'),
    };
  }

  /** Name each path's mount and type (the mount table is re-read at most every 30 s). */
  private withMounts(filesystems: FilesystemMetrics[]): FilesystemMetrics[] {
    const now = performance.now();
    if (this.mounts === undefined || now - this.mountsReadAt > SLOW_INFO_TTL_MS) {
      this.mounts = parseMounts(readProcFile(join(this.proc, 'self', 'mountinfo')) ?? '');
      this.mountsReadAt = now;
    }
    const mounts = this.mounts;
    return filesystems.map((fs) => {
      const mount = fs.available ? mountHolding(fs.path, mounts) : undefined;
      return mount === undefined ? fs : { ...fs, mount_point: mount.path, fs_type: mount.fs_type };
    });
  }

  private network(
    current: Map<string, InterfaceCounters>,
    previous: Reading | undefined,
    elapsedSec: number,
  ): NetworkMetrics {
    const metrics = networkMetrics(
      this.options.networkInterfaces,
      current,
      previous?.network ?? undefined,
      elapsedSec,
    );
    // Link state changes rarely: read /sys at most every SLOW_INFO_TTL_MS, not every tick.
    const now = performance.now();
    if (now - this.linksReadAt > SLOW_INFO_TTL_MS) {
      this.links.clear();
      this.linksReadAt = now;
    }
    for (const entry of metrics.interfaces) {
      if (!entry.available) continue;
      let link = this.links.get(entry.name);
      if (link === undefined) {
        const { is_up, speed_mbps, mtu } = linkInfo(entry.name, this.options.sysNetRoot);
        link = { is_up, speed_mbps, mtu };
        this.links.set(entry.name, link);
      }
      Object.assign(entry, link);
    }
    return metrics;
  }

  /** A limit below what the host has is what makes the cgroup's view differ. */
  private isLimited(cgroup: CgroupReading, memory: MemInfo, hostCpus: number): boolean {
    return (
      (cgroup.memoryLimitBytes !== null && cgroup.memoryLimitBytes < memory.totalBytes) ||
      (cgroup.cpuLimit !== null && cgroup.cpuLimit < hostCpus)
    );
  }

  private cpuPercent(
    reading: Reading,
    previous: Reading | undefined,
    elapsedSec: number,
    cpuLimit: number | null,
  ): number | null {
    if (previous === undefined) return null;
    if (
      cpuLimit !== null &&
      reading.cgroupCpuMicros !== null &&
      previous.cgroupCpuMicros !== null
    ) {
      if (elapsedSec <= 0 || cpuLimit <= 0) return null;
      const usedSec = (reading.cgroupCpuMicros - previous.cgroupCpuMicros) / 1e6;
      return clampPercent((usedSec / (elapsedSec * cpuLimit)) * 100);
    }
    if (reading.cpu === null || previous.cpu === null) return null;
    const total = reading.cpu.total - previous.cpu.total;
    if (total <= 0) return null;
    return clampPercent(((reading.cpu.busy - previous.cpu.busy) / total) * 100);
  }

  private memory(host: MemInfo, cgroup: CgroupReading | null): SystemMetrics['memory'] {
    const limit = cgroup?.memoryLimitBytes ?? null;
    if (cgroup !== null && limit !== null && cgroup.memoryUsedBytes !== null) {
      const total = Math.min(limit, host.totalBytes);
      const used = Math.min(cgroup.memoryUsedBytes, total);
      return {
        total_bytes: total,
        used_bytes: used,
        available_bytes: total - used,
        percent: total > 0 ? clampPercent((used / total) * 100) : 0,
      };
    }
    const used = host.totalBytes - host.availableBytes;
    return {
      total_bytes: host.totalBytes,
      used_bytes: used,
      available_bytes: host.availableBytes,
      percent: host.totalBytes > 0 ? clampPercent((used / host.totalBytes) * 100) : 0,
    };
  }
}

function diskIo(
  current: DiskCounters,
  previous: DiskCounters | null | undefined,
  elapsedSec: number,
): DiskIoMetrics {
  return {
    read_bytes: current.readBytes,
    write_bytes: current.writeBytes,
    read_count: current.readCount,
    write_count: current.writeCount,
    read_bytes_per_sec: ratePerSecond(previous?.readBytes, current.readBytes, elapsedSec),
    write_bytes_per_sec: ratePerSecond(previous?.writeBytes, current.writeBytes, elapsedSec),
  };
}
