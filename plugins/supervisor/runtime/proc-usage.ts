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
import { readStatFd, readStatLine, statFields } from './proc-table.js';

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

interface Reading {
  readonly startTicks: string;
  readonly cpuTicks: number;
  readonly at: number;
}

/** One reading in progress: its usage, the readings to compare with next time, its kept files. */
interface Round {
  readonly usage: Map<number, ProcUsage>;
  readonly current: Map<number, Reading>;
  readonly files: Map<number, number>;
}

const newRound = (): Round => ({ usage: new Map(), current: new Map(), files: new Map() });

/** Reads usage of pids, remembering each one's previous reading for the CPU share. */
export class ProcUsageReader {
  private previous = new Map<number, Reading>();
  private files = new Map<number, number>();
  private pageBytes: number | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * Usage of every pid still alive, or null where /proc is not available. A pid seen for the
   * first time (or reused by a new process) reads 0 % CPU: there is nothing to compare with yet.
   */
  read(pids: readonly number[]): Map<number, ProcUsage> | null {
    const pageBytes = this.pageSize();
    if (pageBytes === null) return null;
    const round = newRound();
    this.readSome(pids, pageBytes, round);
    this.finish(round);
    return round.usage;
  }

  /**
   * {@link read} over turns of the event loop of `turnMs` each, so a thousand pids do not hold it
   * for one long pass. Calls run one after another: a reading swaps the kept files at its end.
   */
  readInTurns(
    pids: readonly number[],
    turnMs = TURN_BUDGET_MS,
  ): Promise<Map<number, ProcUsage> | null> {
    const next = this.queue.then(() => this.readSlices(pids, turnMs));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async readSlices(
    pids: readonly number[],
    turnMs: number,
  ): Promise<Map<number, ProcUsage> | null> {
    const pageBytes = this.pageSize();
    if (pageBytes === null) return null;
    const round = newRound();
    const turn = new TurnBudget(turnMs);
    // A few pids between looks at the clock: one pid's read is some 10 µs.
    const step = 8;
    for (let first = 0; first < pids.length; first += step) {
      if (first > 0 && turn.spent()) await turn.next();
      this.readSome(pids.slice(first, first + step), pageBytes, round);
    }
    this.finish(round);
    return round.usage;
  }

  private readSome(pids: readonly number[], pageBytes: number, round: Round): void {
    const now = performance.now();
    for (const pid of pids) {
      const fields = statFields(this.readLine(pid, round.files));
      if (fields === undefined) continue;
      const cpuTicks = Number(fields[11]) + Number(fields[12]);
      const startTicks = fields[19] ?? '';
      const reading = { startTicks, cpuTicks, at: now };
      const before = this.previous.get(pid);
      let cpu = 0;
      if (before !== undefined && before.startTicks === startTicks && now > before.at) {
        const cpuMs = ((cpuTicks - before.cpuTicks) * 1000) / TICKS_PER_SECOND;
        cpu = (cpuMs / (now - before.at)) * 100;
      }
      const reapedTicks = Number(fields[13]) + Number(fields[14]);
      round.usage.set(pid, {
        cpu,
        memory: Number(fields[21]) * pageBytes,
        cpuSeconds: (cpuTicks + reapedTicks) / TICKS_PER_SECOND,
      });
      round.current.set(pid, reading);
    }
  }

  /** Close the files of pids no longer asked for; this round's readings become the previous. */
  private finish(round: Round): void {
    for (const [pid, fd] of this.files) if (round.files.get(pid) !== fd) closeSync(fd);
    this.files = round.files;
    this.previous = round.current;
  }

  /** Close every file kept open (the reader can still be used afterwards). */
  close(): void {
    for (const fd of this.files.values()) closeSync(fd);
    this.files.clear();
  }

  /** A pid's stat line through its kept descriptor (opened on first need); undefined when gone. */
  private readLine(pid: number, files: Map<number, number>): string | undefined {
    const kept = files.get(pid) ?? this.files.get(pid);
    let fd = kept;
    try {
      fd ??= openSync(`/proc/${pid}/stat`, 'r');
      const line = readStatFd(fd);
      files.set(pid, fd);
      return line;
    } catch {
      // Gone. A kept descriptor is closed with the ones no longer asked for.
      if (fd !== undefined && fd !== kept) closeSync(fd);
      return undefined;
    }
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
