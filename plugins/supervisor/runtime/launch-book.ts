/**
 * What this host launched, on disk, so nothing survives a crash of the host (kill -9, OOM,
 * power): the next start ends every leftover before launching anything, or it would start
 * duplicates next to them (port conflicts, two writers on one database).
 *
 * Two records, because each covers what the other cannot:
 * - a file per launched group (`groups/<pgid>.json`: name, leader pid and start time), written
 *   and fsync'd before the launch is reported; a group is reaped whatever its leader did — the
 *   leader alive with the same start time, or gone while members of its group live on (Linux
 *   does not reuse a pid while a group of that id exists);
 * - the launch marker in every launched environment (launch-marker.ts), which also finds
 *   descendants that left the group and launches a crash cut off before their file was written.
 */
import { readdir, rm } from 'node:fs/promises';
import type { Logger, PluginStorage } from '../../../sdk/index.js';
import { LAUNCH_ENV, markedProcesses, newLaunchId } from './launch-marker.js';
import { terminateProcesses } from './process-group.js';
import { isDead, readProcTable, readProcess, type ProcInfo } from './proc-table.js';

/** One launched group as recorded. */
export interface RecordedGroup {
  readonly process_name: string;
  readonly pid: number;
  /** Start time of the leader in clock ticks since boot, as the kernel reports it. */
  readonly start_ticks: string;
  readonly marker: string;
}

const GROUPS_DIR = 'groups';
const ID_FILE = 'supervisor-id';
const LEFTOVER_GRACE_MS = 5_000;

/** Launch identities, durable group records and the reaping of leftovers. */
export class LaunchBook {
  private id: string | undefined;
  private opening: Promise<void> | undefined;
  private reaping: Promise<string[]> | undefined;

  constructor(
    private readonly storage: PluginStorage,
    private readonly logger: Logger,
  ) {}

  /**
   * Load (or create) this data dir's supervisor id and start ending what a previous host left
   * (launches wait for that through {@link ready}). Idempotent.
   */
  open(): Promise<void> {
    this.opening ??= this.load();
    return this.opening;
  }

  private async load(): Promise<void> {
    const saved = (await this.storage.readFile(ID_FILE))?.toString('utf8').trim();
    this.id = saved !== undefined && /^[\w-]{8,64}$/.test(saved) ? saved : newLaunchId();
    if (saved !== this.id) await this.storage.writeFileAtomic(ID_FILE, this.id);
    this.reaping = this.reapLeftovers();
  }

  /** Settles once the leftovers of a previous host are gone (launches wait for it). */
  async ready(): Promise<void> {
    await this.open();
    await this.reaping;
  }

  /** The process names reaped at open (after {@link ready}). */
  async reaped(): Promise<string[]> {
    await this.open();
    return (await this.reaping) ?? [];
  }

  /** The environment of a new launch, with its marker. */
  newMarker(): { readonly name: string; readonly value: string } {
    if (this.id === undefined) throw new Error('launch book not opened');
    return { name: LAUNCH_ENV, value: `${this.id}:${newLaunchId()}` };
  }

  /** Record a launched group durably (fsync'd) before the launch is reported. */
  async recorded(processName: string, pid: number, marker: string): Promise<void> {
    const leader = readProcess(pid);
    const group: RecordedGroup = {
      process_name: processName,
      pid,
      start_ticks: leader?.startTicks ?? '',
      marker,
    };
    try {
      await this.storage.writeJsonAtomic(`${GROUPS_DIR}/${pid}.json`, group);
    } catch (error) {
      // The marker still finds it after a crash; the launch itself must not fail on a full disk.
      this.logger.warn(`could not record the launch of ${processName}`, { error });
    }
  }

  /** The group ended for good: drop its record. */
  async forget(pid: number): Promise<void> {
    await rm(this.storage.path(`${GROUPS_DIR}/${pid}.json`), { force: true }).catch(
      () => undefined,
    );
  }

  /** Terminate everything a previous host left running; returns the process names reaped. */
  private async reapLeftovers(): Promise<string[]> {
    const recorded = await this.readRecords();
    const table = (await readProcTable()) ?? [];
    const doomed = new Set<number>();
    const names = new Set<string>();
    for (const group of recorded) {
      const members = leftoverMembers(group, table);
      if (members.length === 0) continue;
      names.add(group.process_name);
      for (const pid of members) doomed.add(pid);
    }
    const id = this.id ?? '';
    for (const pid of id === '' ? [] : await markedProcesses(`${id}:`)) {
      doomed.add(pid);
      names.add(`pid ${pid}`);
    }
    if (doomed.size > 0) {
      this.logger.warn(
        `stopping ${doomed.size} process(es) left running by a previous host: ${[...names].join(', ')}`,
      );
      const survivors = await terminateProcesses([...doomed], 'SIGTERM', LEFTOVER_GRACE_MS);
      if (survivors.length > 0)
        this.logger.error(`leftover processes survived SIGKILL: ${survivors.join(', ')}`);
    }
    await Promise.all(recorded.map((group) => this.forget(group.pid)));
    return [...names];
  }

  private async readRecords(): Promise<RecordedGroup[]> {
    let files: string[];
    try {
      files = await readdir(this.storage.path(GROUPS_DIR));
    } catch {
      return [];
    }
    const records = await Promise.all(
      files
        .filter((file) => /^\d+\.json$/.test(file))
        .map((file) =>
          this.storage.readJson<RecordedGroup>(`${GROUPS_DIR}/${file}`).catch(() => undefined),
        ),
    );
    return records.filter(
      (record): record is RecordedGroup =>
        record !== undefined && Number.isInteger(record.pid) && record.pid > 1,
    );
  }
}

/** Live members of a recorded group, or none when the pid now names someone else's group. */
export function leftoverMembers(group: RecordedGroup, table: readonly ProcInfo[]): number[] {
  const leader = table.find((row) => row.pid === group.pid);
  if (leader !== undefined && !isDead(leader) && leader.startTicks !== group.start_ticks) return [];
  return table.filter((row) => row.pgrp === group.pid && !isDead(row)).map((row) => row.pid);
}
