/**
 * CPU and resident memory of processes from `/proc/<pid>/stat` (Linux), read synchronously like
 * the process table. pidusage reads the same file through the thread pool, three round trips per
 * pid and a fresh buffer each time; with 50 supervised processes that was the largest part of a
 * metrics tick after the /proc scan itself. pidusage stays the reader where /proc is missing.
 *
 * Each pid's file stays open between readings: one `pread` per pid and tick instead of a path
 * lookup, a read and a close. A descriptor names the process it was opened for, so a reused pid
 * can never be read through it; it is closed once its process is gone or no longer asked for.
 */
import { closeSync, openSync } from 'node:fs';
import { TURN_BUDGET_MS, TurnBudget } from '../../../sdk/index.js';
import { readStatLine, readStatNumbers, statFields } from './proc-table.js';

/** One process's usage: CPU in percent of one core since the previous reading, RSS in bytes. */
export interface ProcUsage {
  readonly cpu: number;
  readonly memory: number;
  /** CPU time used so far, its own and that of children it reaped (seconds). */
  readonly cpuSeconds: number;
}

/**
 * Clock ticks per second of the `utime`/`stime` fields: the kernel's USER_HZ, 100 on every
 * architecture Node runs on (pidusage asks `getconf CLK_TCK`, a process spawn, for the same 100).
 */
const TICKS_PER_SECOND = 100;

/** Indexes into the stat fields (see statFields): utime, stime, cutime, cstime, starttime, rss. */
const UTIME = 11;
const STIME = 12;
const CUTIME = 13;
const CSTIME = 14;
const START_TIME = 19;
const RSS = 21;

/**
 * A pid's kept file and its latest reading, updated in place at each reading: it is also the
 * pid's {@link ProcUsage} in what a reading returns, so a reading of a thousand pids makes no
 * object per pid (docs/performance-scale.md, "The idle tick at 1,000").
 */
interface Kept extends ProcUsage {
  readonly fd: number;
  startTicks: number;
  cpuTicks: number;
  at: number;
  /** The reading that last read it: files not read in a whole reading are closed. */
  round: number;
  cpu: number;
  memory: number;
  cpuSeconds: number;
}

/** Reads usage of pids, remembering each one's previous reading for the CPU share. */
export class ProcUsageReader {
  private readonly kept = new Map<number, Kept>();
  private readonly fields = new Float64Array(RSS + 1);
  private rounds = 0;
  private pageBytes: number | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * Usage of every pid still alive, or null where /proc is not available. A pid seen for the
   * first time (or reused by a new process) reads 0 % CPU: there is nothing to compare with yet.
   * The map and its values are the reader's own, valid until its next reading, which updates them.
   */
  read(pids: readonly number[]): ReadonlyMap<number, ProcUsage> | null {
    const pageBytes = this.pageSize();
    if (pageBytes === null) return null;
    this.rounds += 1;
    this.readSome(pids, 0, pids.length, pageBytes);
    this.finish();
    return this.kept;
  }

  /**
   * {@link read} over turns of the event loop of `turnMs` each, so a thousand pids do not hold it
   * for one long pass. Calls run one after another: a reading closes the files it did not read.
   */
  readInTurns(
    pids: readonly number[],
    turnMs = TURN_BUDGET_MS,
  ): Promise<ReadonlyMap<number, ProcUsage> | null> {
    const next = this.queue.then(() => this.readSlices(pids, turnMs));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async readSlices(
    pids: readonly number[],
    turnMs: number,
  ): Promise<ReadonlyMap<number, ProcUsage> | null> {
    const pageBytes = this.pageSize();
    if (pageBytes === null) return null;
    this.rounds += 1;
    const turn = new TurnBudget(turnMs);
    // A few pids between looks at the clock: one pid's read is some 10 µs.
    const step = 8;
    for (let first = 0; first < pids.length; first += step) {
      if (first > 0 && turn.spent()) await turn.next();
      this.readSome(pids, first, Math.min(pids.length, first + step), pageBytes);
    }
    this.finish();
    return this.kept;
  }

  private readSome(pids: readonly number[], from: number, to: number, pageBytes: number): void {
    const now = performance.now();
    const { fields } = this;
    for (let index = from; index < to; index += 1) {
      const pid = pids[index] ?? 0;
      const kept = this.readFields(pid, now);
      if (kept === undefined) continue;
      const cpuTicks = (fields[UTIME] ?? 0) + (fields[STIME] ?? 0);
      const startTicks = fields[START_TIME] ?? 0;
      let cpu = 0;
      if (kept.startTicks === startTicks && now > kept.at) {
        const cpuMs = ((cpuTicks - kept.cpuTicks) * 1000) / TICKS_PER_SECOND;
        cpu = (cpuMs / (now - kept.at)) * 100;
      }
      kept.startTicks = startTicks;
      kept.cpuTicks = cpuTicks;
      kept.at = now;
      const reapedTicks = (fields[CUTIME] ?? 0) + (fields[CSTIME] ?? 0);
      kept.cpu = cpu;
      kept.memory = (fields[RSS] ?? 0) * pageBytes;
      kept.cpuSeconds = (cpuTicks + reapedTicks) / TICKS_PER_SECOND;
    }
  }

  /**
   * Read a pid's stat fields through its kept descriptor (opened on first need, with no previous
   * reading: start time -1 matches no process); undefined when it is gone, its file closed.
   */
  private readFields(pid: number, now: number): Kept | undefined {
    let kept = this.kept.get(pid);
    try {
      kept ??= {
        fd: openSync(`/proc/${pid}/stat`, 'r'),
        startTicks: -1,
        cpuTicks: 0,
        at: now,
        round: 0,
        cpu: 0,
        memory: 0,
        cpuSeconds: 0,
      };
      readStatNumbers(kept.fd, this.fields);
      kept.round = this.rounds;
      this.kept.set(pid, kept);
      return kept;
    } catch {
      if (kept !== undefined) closeSync(kept.fd);
      this.kept.delete(pid);
      return undefined;
    }
  }

  /** Close the files of pids this reading did not ask for: they forget their previous reading. */
  private finish(): void {
    // forEach, not for-of: no [pid, kept] pair is made for each of a thousand pids.
    this.kept.forEach((kept, pid) => {
      if (kept.round === this.rounds) return;
      closeSync(kept.fd);
      this.kept.delete(pid);
    });
  }

  /** Close every file kept open (the reader can still be used afterwards). */
  close(): void {
    for (const kept of this.kept.values()) closeSync(kept.fd);
    this.kept.clear();
  }

  /**
   * Bytes per page of the `rss` field. Node has no `sysconf`; its own resident size in bytes
   * (from the same kernel counters) divided by the pages this file reports for the host gives it,
   * rounded to a power of two (4 KiB, or 16/64 KiB on some ARM kernels).
   */
  private pageSize(): number | null {
    if (this.pageBytes !== undefined) return this.pageBytes;
    const fields = statFields(readStatLine(String(process.pid)));
    const pages = Number(fields?.[21]);
    if (!Number.isFinite(pages) || pages <= 0) return null;
    const ratio = process.memoryUsage.rss() / pages;
    this.pageBytes = 2 ** Math.round(Math.log2(ratio));
    return this.pageBytes;
  }
}
