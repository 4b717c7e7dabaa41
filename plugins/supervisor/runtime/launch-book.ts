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
import { rm } from 'node:fs/promises';
import type { Logger, PluginStorage } from '../../../sdk/index.js';
import { LAUNCH_ENV, markedProcessesWithMarkers, newLaunchId } from './launch-marker.js';
import { terminateProcesses } from './process-group.js';
import { isDead, readProcTable, readProcess, type ProcInfo } from './proc-table.js';
import { fifoPathsOf, removeFifos } from '../adoption/output-fifo.js';
import { procReader, verifyLaunch, type ProcReader } from '../adoption/verify.js';
import { PendingRestarts, type PendingRestart } from '../adoption/pending-restarts.js';
import { RecordBatch } from './record-batch.js';
import {
  readLaunchRecords,
  readSmallFile,
  type AdoptionFacts,
  type RecordedGroup,
} from './launch-records.js';

const GROUPS_DIR = 'groups';
const FIFOS_DIR = 'fifos';
const ID_FILE = 'supervisor-id';
const LEFTOVER_GRACE_MS = 5_000;

/** Launch identities, durable group records and the reaping of leftovers. */
export class LaunchBook {
  private id: string | undefined;
  private opening: Promise<void> | undefined;
  private verifying: Promise<RecordedGroup[]> | undefined;
  private reaping: Promise<string[]> | undefined;
  /** Lets the reaping begin; the first {@link ready} calls it. */
  private beginReaping: () => void = () => undefined;
  private readonly reapingAllowed = new Promise<void>((resolve) => (this.beginReaping = resolve));
  /** Verified launches of a previous host, by process name, until adopted or released. */
  private readonly candidates = new Map<string, RecordedGroup>();
  private readonly pending: PendingRestarts;
  private readonly records = new RecordBatch();
  /** The background release that {@link releaseAfterReaping} began, if any. */
  private releasing: Promise<void> | undefined;
  /** {@link fifoDir}, once resolved. */
  private fifos: string | undefined;

  constructor(
    private readonly storage: PluginStorage,
    private readonly logger: Logger,
    private readonly reader: ProcReader = procReader,
    /** Epoch ms at which this host started (adoptions name it). */
    readonly hostStartedAt: number = Date.now(),
  ) {
    this.pending = new PendingRestarts(storage);
  }

  /** Record (null: drop) a restart waiting out its backoff. */
  pendingRestart(processName: string, pending: PendingRestart | null): Promise<void> {
    return this.pending.set(processName, pending);
  }

  /** The pending restart a previous host left for a process, taken out. */
  takePendingRestart(processName: string): Promise<PendingRestart | undefined> {
    return this.pending.take(processName);
  }

  /** Where launches' output FIFOs live (resolved once: every launch and adoption asks). */
  fifoDir(): string {
    this.fifos ??= this.storage.path(FIFOS_DIR);
    return this.fifos;
  }

  /**
   * Launch ids (the marker's last part) of the verified launches spared for adoption: their
   * cgroups are not leftovers either.
   */
  readonly sparedLaunchIds = new Set<string>();
  /** The markers of the verified launches, whose trees the reaping spares. */
  private readonly sparedMarkers = new Set<string>();
  /** Told of the launch ids it released (their cgroups go too). */
  onReleased: (launchIds: string[]) => Promise<void> = () => Promise.resolve();

  /** The verified launch of a previous host for `processName`, taken out (adopt it or end it). */
  claim(processName: string): RecordedGroup | undefined {
    const found = this.candidates.get(processName);
    this.candidates.delete(processName);
    return found;
  }

  /** End every verified leftover nobody claimed (no longer configured, or disabled). */
  async releaseUnclaimed(): Promise<string[]> {
    const left = [...this.candidates.values()];
    this.candidates.clear();
    if (left.length === 0) return [];
    this.logger.warn(
      `stopping ${left.length} process(es) left running by a previous host and not adopted: ${left.map((group) => group.process_name).join(', ')}`,
    );
    const marked = await markedProcessesWithMarkers(`${this.id ?? ''}:`);
    const pids = new Set(left.map((group) => group.pid));
    const markers = new Set(left.map((group) => group.marker));
    for (const [pid, marker] of marked) if (markers.has(marker)) pids.add(pid);
    await terminateProcesses([...pids], 'SIGTERM', LEFTOVER_GRACE_MS);
    await Promise.all(left.map((group) => this.forget(group.pid)));
    const ids = left.map((group) => group.marker.slice(group.marker.lastIndexOf(':') + 1));
    for (const id of ids) this.sparedLaunchIds.delete(id);
    for (const marker of markers) this.sparedMarkers.delete(marker);
    await this.onReleased(ids);
    return left.map((group) => group.process_name);
  }

  /**
   * Load (or create) this data dir's supervisor id and start ending what a previous host left
   * (launches wait for that through {@link ready}). Idempotent.
   */
  open(): Promise<void> {
    this.opening ??= this.load();
    return this.opening;
  }

  private async load(): Promise<void> {
    const saved = readSmallFile(this.storage.path(ID_FILE))?.trim();
    this.id = saved !== undefined && /^[\w-]{8,64}$/.test(saved) ? saved : newLaunchId();
    // Read and verified here, synchronously, so that the plugin's start (which awaits this) ends
    // with the candidates known and the adoptions can begin before the host listens.
    this.verifying = Promise.resolve(this.verifyRecords());
    if (saved !== this.id) await this.storage.writeFileAtomic(ID_FILE, this.id);
    // Adoption needs only the verification. The reaping of the rest scans every process on the
    // machine on this thread, so it waits for the first ready() (a launch, which must not begin
    // before it) or until a while after the boot's adoptions (releaseAfterReaping).
    this.reaping = Promise.all([this.verifying, this.reapingAllowed]).then(([recorded]) =>
      this.reapLeftovers(recorded),
    );
  }

  /** Settles once the records are verified: the candidates for adoption are known. */
  async verified(): Promise<void> {
    await this.open();
    await this.verifying;
  }

  /**
   * Settles once the leftovers of a previous host are gone (launches wait for it); the reaping
   * begins at the first call.
   */
  async ready(): Promise<void> {
    await this.open();
    this.beginReaping();
    await this.reaping;
  }

  /**
   * After a boot's adoptions: end what no enabled process claimed once the rest is reaped. The
   * reaping begins `delayMs` later, or at once when a launch needs it ({@link ready}): nothing
   * adopted waits for it, and it reads every process on the machine on this thread, just when
   * the host answers its first requests after a restart.
   */
  releaseAfterReaping(delayMs: number): void {
    setTimeout(() => this.beginReaping(), delayMs).unref();
    this.releasing = this.reapingDone()
      .then(() => this.releaseUnclaimed())
      .then(
        () => undefined,
        (error: unknown) =>
          this.logger.error('could not stop what a previous host left running', { error }),
      );
  }

  /**
   * At a host stop: what {@link releaseAfterReaping} would end later is ended now, so that a stop
   * right after an adopting boot leaves nothing of the previous host running.
   */
  async releaseNow(): Promise<void> {
    if (this.releasing === undefined) return;
    this.beginReaping();
    await this.releasing;
  }

  /** Settles once the reaping is done, without beginning it. */
  async reapingDone(): Promise<void> {
    await this.open();
    await this.reaping;
  }

  /** The process names reaped (begins the reaping, as {@link ready} does). */
  async reaped(): Promise<string[]> {
    await this.ready();
    return (await this.reaping) ?? [];
  }

  /** The environment of a new launch, with its marker. */
  newMarker(): { readonly name: string; readonly value: string } {
    if (this.id === undefined) throw new Error('launch book not opened');
    return { name: LAUNCH_ENV, value: `${this.id}:${newLaunchId()}` };
  }

  /** Record a launched group durably (fsync'd) before the launch is reported. */
  async recorded(
    processName: string,
    pid: number,
    marker: string,
    adoption?: AdoptionFacts,
  ): Promise<void> {
    const leader = readProcess(pid);
    const group: RecordedGroup = {
      process_name: processName,
      pid,
      start_ticks: leader?.startTicks ?? '',
      marker,
      ...(adoption === undefined ? {} : { adoption }),
    };
    try {
      await this.records.write(this.storage.path(`${GROUPS_DIR}/${pid}.json`), group);
    } catch (error) {
      // The marker still finds it after a crash; the launch itself must not fail on a full disk.
      this.logger.warn(`could not record the launch of ${processName}`, { error });
    }
  }

  /** The group ended for good: drop its record. */
  async forget(pid: number): Promise<void> {
    removeFifos(fifoPathsOf(this.fifoDir(), pid));
    await rm(this.storage.path(`${GROUPS_DIR}/${pid}.json`), { force: true }).catch(
      () => undefined,
    );
  }

  /**
   * Sort the records: verified launches become candidates for adoption (spared by the reaping,
   * with their trees); the rest are returned, to be reaped.
   */
  private verifyRecords(): RecordedGroup[] {
    const recorded: RecordedGroup[] = [];
    for (const group of this.readRecords()) {
      const verdict = verifyLaunch(group, this.reader);
      if (verdict.same && group.adoption !== undefined && !this.candidates.has(group.process_name))
        this.candidates.set(group.process_name, group);
      else recorded.push(group);
    }
    for (const group of this.candidates.values()) {
      this.sparedMarkers.add(group.marker);
      this.sparedLaunchIds.add(group.marker.slice(group.marker.lastIndexOf(':') + 1));
    }
    return recorded;
  }

  /** Terminate everything a previous host left running; returns the process names reaped. */
  private async reapLeftovers(recorded: readonly RecordedGroup[]): Promise<string[]> {
    // Taken at verification: adoptions claim candidates while this runs, and stay spared.
    const spared = this.sparedMarkers;
    const table = (await readProcTable()) ?? [];
    const doomed = new Set<number>();
    const names = new Set<string>();
    for (const group of recorded) {
      const members = leftoverMembers(group, table, this.reader);
      if (members.length === 0) continue;
      names.add(group.process_name);
      for (const pid of members) doomed.add(pid);
    }
    const id = this.id ?? '';
    const marked =
      id === '' ? new Map<number, string>() : await markedProcessesWithMarkers(`${id}:`);
    for (const [pid, marker] of marked) {
      if (spared.has(marker)) continue; // the tree of a process about to be adopted
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

  private readRecords(): RecordedGroup[] {
    return readLaunchRecords(this.storage.path(GROUPS_DIR));
  }
}

/**
 * Live members of a recorded group, or none when the pid now names someone else's process: a
 * live leader must show the recorded start time and launch marker, or it is never signalled.
 */
export function leftoverMembers(
  group: RecordedGroup,
  table: readonly ProcInfo[],
  reader: ProcReader = procReader,
): number[] {
  const leader = table.find((row) => row.pid === group.pid);
  if (leader !== undefined && !isDead(leader) && !verifyLaunch(group, reader).same) return [];
  return table.filter((row) => row.pgrp === group.pid && !isDead(row)).map((row) => row.pid);
}
