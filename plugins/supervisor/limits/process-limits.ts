/**
 * The supervisor's side of limits: each launch gets its cgroup with the limits written into it,
 * a watch for what the kernel reports and what only stackd can enforce, and the words for how
 * each limit is enforced (shown in the process detail and /health).
 */
import type { Logger } from '../../../sdk/index.js';
import type { CgroupManager } from '../cgroups/cgroup-manager.js';
import type { LaunchCgroup, RecordedCgroup } from '../cgroups/launch-cgroup.js';
import type { LaunchCgroups, RunningLimitWatch } from '../runtime/runner-types.js';
import { applyLimits, type Enforcement } from './cgroup-limits.js';
import { hasLimits, limitSpecOf, type LimitSpec } from './limit-fields.js';
import { LimitWatch, type LimitBreach, type TreeUsage } from './limit-watch.js';

/** How one process is contained and its limits enforced. */
export interface ProcessEnforcement {
  /** "cgroup v1 (freezer, memory, …)", "cgroup v2" or "none: cgroups off by config". */
  readonly isolation: string;
  readonly limits: Enforcement;
}

/** What the limits need from the host. */
export interface ProcessLimitsOptions {
  readonly cgroups: CgroupManager;
  readonly usage: (processName: string, pid: number) => TreeUsage | undefined;
  readonly intervalMs: number;
  readonly checks: number;
  readonly logger: Logger;
  /** Keep the tree-usage metrics sampled until the returned release is called. */
  readonly demandUsage?: () => () => void;
}

const NONE: Enforcement = { memory_max: null, memory_high: null, cpu_max: null, pids_max: null };

/** Per-launch cgroups with limits, their watches and their enforcement in words. */
export class ProcessLimits implements LaunchCgroups {
  private readonly enforced = new Map<string, ProcessEnforcement>();
  private readonly live = new Map<string, LaunchCgroup | null>();
  private readonly lastBreach = new Map<string, LimitBreach & { at: number }>();

  constructor(private readonly options: ProcessLimitsOptions) {}

  private noCgroupWhy(): string {
    const layout = this.options.cgroups.current();
    return layout.kind === 'none' ? `watch: ${layout.why}` : 'watch: no cgroup for this launch';
  }

  async create(
    processName: string,
    launchId: string,
    limits?: LimitSpec,
  ): Promise<LaunchCgroup | null> {
    const cgroup = await this.options.cgroups.create(processName, launchId);
    this.live.set(processName, cgroup);
    await this.apply(processName, cgroup, limits, true);
    return cgroup;
  }

  /** The cgroup of an adopted launch, made by a previous host (null: none). */
  async existing(
    processName: string,
    launchId: string,
    recorded?: RecordedCgroup | null,
  ): Promise<LaunchCgroup | null> {
    const cgroup = await this.options.cgroups.existing(processName, launchId, recorded);
    this.live.set(processName, cgroup);
    return cgroup;
  }

  private async apply(
    processName: string,
    cgroup: LaunchCgroup | null,
    limits: LimitSpec | undefined,
    fresh = false,
  ): Promise<void> {
    const enforcement =
      limits === undefined ? NONE : await applyLimits(cgroup, limits, this.noCgroupWhy(), fresh);
    this.enforced.set(processName, {
      isolation: this.options.cgroups.describe(),
      limits: enforcement,
    });
    if (limits !== undefined && hasLimits(limits))
      this.options.logger.info(`${processName}: limits ${JSON.stringify(enforcement)}`);
  }

  /** Limits changed at run time: written into the running launch's cgroup at once. */
  async update(processName: string, limits: LimitSpec): Promise<void> {
    if (!this.live.has(processName)) return;
    await this.apply(processName, this.live.get(processName) ?? null, limits);
  }

  /** The block of `processName` changed: apply its limits to the live launch (bad ones: kept). */
  async updateFromBlock(
    processName: string,
    block: Readonly<Record<string, unknown>>,
    defaults: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    let limits: LimitSpec;
    try {
      limits = limitSpecOf(block, defaults);
    } catch {
      return;
    }
    await this.update(processName, limits);
  }

  /** The launch ended: its cgroup is gone. */
  ended(processName: string): void {
    this.live.delete(processName);
  }

  /** How `processName` is contained and limited (before its first launch: the machine's). */
  enforcement(processName: string): ProcessEnforcement {
    return (
      this.enforced.get(processName) ?? {
        isolation: this.options.cgroups.describe(),
        limits: NONE,
      }
    );
  }

  /** Remember the last limit `processName` hit (shown in its detail). */
  recordBreach(processName: string, breach: LimitBreach): void {
    this.lastBreach.set(processName, { ...breach, at: Date.now() });
  }

  /** The detail view: isolation, how each limit is enforced, the last limit hit. */
  view(processName: string) {
    const { isolation, limits } = this.enforcement(processName);
    const last = this.lastBreach.get(processName);
    return {
      isolation,
      ...limits,
      last_event:
        last === undefined ? null : { reason: last.reason, limit: last.limit, at: last.at },
    };
  }

  /** A watch of a running launch (started), or null when it has no limits. */
  watch(
    processName: string,
    pid: number,
    cgroup: LaunchCgroup | null,
    limits: LimitSpec | undefined,
    onBreach: (breach: LimitBreach) => void,
  ): RunningLimitWatch | null {
    if (limits === undefined || !hasLimits(limits)) return null;
    const watch = new LimitWatch({
      limits,
      enforcement: this.enforcement(processName).limits,
      cgroup,
      usage: () => this.options.usage(processName, pid),
      intervalMs: this.options.intervalMs,
      checks: this.options.checks,
      onBreach,
    });
    // Sampling runs only while someone reads it: a watch is such a reader.
    const release = this.options.demandUsage?.() ?? (() => undefined);
    watch.start();
    return {
      stop: () => {
        watch.stop();
        release();
      },
      kernelReason: () => watch.kernelReason(),
    };
  }
}
