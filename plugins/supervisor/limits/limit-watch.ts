/**
 * Watches one launch against its limits at a fixed interval: OOM kills the kernel made in its
 * cgroup (the reason names the limit and the peak), and — where no cgroup enforces a limit — the
 * tree-summed RSS and CPU from the metrics, acted on only after `checks` consecutive readings
 * over the limit (hysteresis: one spike is not a breach). memory_high warns once per crossing.
 */
import type { LaunchCgroup } from '../cgroups/launch-cgroup.js';
import { memoryCurrent, memoryPeak, oomKills, type Enforcement } from './cgroup-limits.js';
import { formatBytes, type LimitSpec, type OnLimit } from './limit-fields.js';

/** Tree usage of the launch (cpu in percent of one core). */
export interface TreeUsage {
  readonly cpu_percent: number;
  readonly rss_bytes: number;
}

/** A limit was hit. */
export interface LimitBreach {
  /** What happened, in words ("killed by the kernel: memory limit 512 MiB reached (peak …)"). */
  readonly reason: string;
  readonly action: OnLimit;
  readonly limit: 'memory_max' | 'memory_high' | 'cpu_max';
}

/** What a watch needs. */
export interface LimitWatchOptions {
  readonly limits: LimitSpec;
  readonly enforcement: Enforcement;
  readonly cgroup: LaunchCgroup | null;
  readonly usage: () => TreeUsage | undefined;
  readonly intervalMs: number;
  /** Consecutive readings over a watched limit before acting. */
  readonly checks: number;
  onBreach(breach: LimitBreach): void;
}

const VERB: Readonly<Record<OnLimit, string>> = {
  restart: 'restarted by stackd',
  stop: 'stopped by stackd',
  notify: 'noticed by stackd',
};

const watched = (how: string | null): boolean => how !== null && how.startsWith('watch');

/** The watch of one launch. */
export class LimitWatch {
  private timer: NodeJS.Timeout | undefined;
  private oomSeen = 0;
  private memoryOver = 0;
  private cpuOver = 0;
  private aboveHigh = false;
  private ticking = false;

  constructor(private readonly options: LimitWatchOptions) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The kernel's reason when it OOM-killed a member since the last look, else null. */
  async kernelReason(): Promise<string | null> {
    const { cgroup, limits } = this.options;
    if (cgroup === null || limits.memoryMax === null) return null;
    const kills = await oomKills(cgroup);
    if (kills <= this.oomSeen) return null;
    this.oomSeen = kills;
    const peak = await memoryPeak(cgroup);
    const peakText = peak === null ? '' : ` (peak ${formatBytes(peak)})`;
    return `killed by the kernel: memory limit ${formatBytes(limits.memoryMax)} reached${peakText}`;
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const breach = (await this.kernelBreach()) ?? (await this.watchedBreach());
      if (breach !== null && this.timer !== undefined) this.options.onBreach(breach);
    } finally {
      this.ticking = false;
    }
  }

  private async kernelBreach(): Promise<LimitBreach | null> {
    const reason = await this.kernelReason();
    if (reason === null) return null;
    return { reason, action: this.options.limits.onLimit, limit: 'memory_max' };
  }

  private async watchedBreach(): Promise<LimitBreach | null> {
    const { limits, enforcement, checks } = this.options;
    const usage = this.options.usage();
    const memory =
      this.options.cgroup === null
        ? (usage?.rss_bytes ?? null)
        : ((await memoryCurrent(this.options.cgroup)) ?? usage?.rss_bytes ?? null);
    const high = this.highCrossing(memory);
    if (high !== null) return high;
    const verb = VERB[limits.onLimit];
    if (limits.memoryMax !== null && watched(enforcement.memory_max) && memory !== null) {
      this.memoryOver = memory > limits.memoryMax ? this.memoryOver + 1 : 0;
      if (this.memoryOver >= checks) {
        this.memoryOver = 0;
        return {
          reason: `${verb}: tree memory ${formatBytes(memory)} over memory_max ${formatBytes(limits.memoryMax)} for ${checks} checks`,
          action: limits.onLimit,
          limit: 'memory_max',
        };
      }
    }
    if (limits.cpuMax !== null && watched(enforcement.cpu_max) && usage !== undefined) {
      const cores = usage.cpu_percent / 100;
      this.cpuOver = cores > limits.cpuMax ? this.cpuOver + 1 : 0;
      if (this.cpuOver >= checks) {
        this.cpuOver = 0;
        return {
          reason: `${verb}: tree CPU ${cores.toFixed(2)} cores over cpu_max ${limits.cpuMax} for ${checks} checks`,
          action: limits.onLimit,
          limit: 'cpu_max',
        };
      }
    }
    return null;
  }

  private highCrossing(memory: number | null): LimitBreach | null {
    const high = this.options.limits.memoryHigh;
    if (high === null || memory === null) return null;
    const above = memory > high;
    const crossed = above && !this.aboveHigh;
    this.aboveHigh = above;
    if (!crossed) return null;
    return {
      reason: `tree memory ${formatBytes(memory)} over memory_high ${formatBytes(high)}`,
      action: 'notify',
      limit: 'memory_high',
    };
  }
}
