/**
 * Which process groups this host launched, on disk. If the host dies without stopping them
 * (kill -9, OOM, power), its detached children live on; the next start would launch duplicates
 * next to them (port conflicts, two writers on one database). At boot the registry names the
 * leftovers and they are terminated first. A pid is only trusted together with its start time
 * (field 22 of /proc/<pid>/stat), so a recycled pid is never signalled.
 */
import type { Logger, PluginStorage, ProcessState } from '../../../sdk/index.js';
import { terminateGroup } from './process-group.js';
import { isDead, readProcess } from './proc-table.js';

/** One launched group as recorded. */
export interface RecordedGroup {
  readonly process_name: string;
  readonly pid: number;
  /** Start time of the pid in clock ticks since boot, as the kernel reports it. */
  readonly start_ticks: string;
}

const FILE = 'launched-groups.json';
const FLUSH_DELAY_MS = 100;
const LEFTOVER_GRACE_MS = 5_000;

/** Start time of a live (not zombie) pid in clock ticks since boot, or null when it is gone. */
function processStartTicks(pid: number): string | null {
  const row = readProcess(pid);
  return row === undefined || isDead(row) ? null : row.startTicks;
}

/** The registry of launched groups, persisted in the plugin's storage folder. */
export class PidRegistry {
  private readonly groups = new Map<string, RecordedGroup>();
  private flushTimer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: PluginStorage,
    private readonly logger: Logger,
  ) {}

  /** Follow a state change: a new pid is recorded, a pid that went away is dropped. */
  track(state: ProcessState): void {
    const known = this.groups.get(state.process_name);
    if (state.pid === null) {
      if (known !== undefined) {
        this.groups.delete(state.process_name);
        this.scheduleFlush();
      }
      return;
    }
    if (known?.pid === state.pid) return;
    const ticks = processStartTicks(state.pid);
    if (ticks === null) return;
    this.groups.set(state.process_name, {
      process_name: state.process_name,
      pid: state.pid,
      start_ticks: ticks,
    });
    this.scheduleFlush();
  }

  /** Terminate groups a previous host left running; returns the names it stopped. */
  async reapLeftovers(): Promise<string[]> {
    const recorded =
      (await this.storage.readJson<RecordedGroup[]>(FILE).catch(() => undefined)) ?? [];
    const reaped: string[] = [];
    await Promise.all(
      recorded.map(async (group) => {
        if (!Number.isInteger(group.pid) || group.pid <= 1) return;
        if (processStartTicks(group.pid) !== group.start_ticks) return;
        this.logger.warn(
          `stopping ${group.process_name} (pid ${group.pid}), left running by a previous host`,
        );
        // Not our child: only the group's members tell whether it is gone.
        const result = await terminateGroup(group.pid, 'SIGTERM', LEFTOVER_GRACE_MS, () => true);
        if (result.survived)
          this.logger.error(`leftover group of ${group.process_name} survived SIGKILL`);
        reaped.push(group.process_name);
      }),
    );
    await this.storage.writeJsonAtomic(FILE, []);
    return reaped;
  }

  /** Write what is pending now (at stop). */
  async flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const snapshot = [...this.groups.values()];
    this.writing = this.writing
      .then(() => this.storage.writeJsonAtomic(FILE, snapshot))
      .catch((error: unknown) =>
        this.logger.warn('could not record launched processes', { error }),
      );
    await this.writing;
  }

  private scheduleFlush(): void {
    if (this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
    this.flushTimer.unref();
  }
}
