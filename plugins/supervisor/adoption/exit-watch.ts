/**
 * The exit checks of every adopted process, on one timer. An adopted process is not the host's
 * child, so nothing tells the host when it exits: it is looked for. One interval per process
 * (every 500 ms, as before) woke an idle host twice a second after every adoption, and read
 * `/proc/<pid>/stat` (open, read, close) 2,000 times a second with 1,000 adopted processes
 * (~1.7 % of a core, docs/performance-scale.md, "The idle tick at 1,000: fewer copies").
 *
 * Here one timer, every 2 s, asks the kernel whether each pid still exists (`kill(pid, 0)`: one
 * system call, no file), and every fifth round reads its start time as well, so that a pid
 * reused by another program within those ten seconds is still told apart. An exit is usually
 * seen at once instead: when a process ends, its output FIFOs reach their end, and the follower
 * asks for a check ({@link ExitWatch.watch}'s answer); the timer is for a process whose FIFOs a
 * descendant still holds, or that has none. Every 2 s, not every second: an idle host already
 * wakes once a second, and the issue's bound is once a second (docs/performance-scale.md).
 */
import { pidPresence } from '../runtime/process-group.js';
import { isDead } from '../runtime/proc-table.js';
import type { ProcReader } from './verify.js';

/** How often every watched pid is checked to still exist. */
export const EXIT_CHECK_MS = 2_000;
/** Every this many checks, the start time is compared too (a pid reused meanwhile). */
const FULL_CHECK_EVERY = 5;

interface Watched {
  readonly pid: number;
  readonly startTicks: string;
  readonly reader: ProcReader;
  readonly onExit: () => void;
}

/** Watches pids for their exit; one timer for all of them while any is watched. */
export class ExitWatch {
  private readonly watched = new Set<Watched>();
  private timer: NodeJS.Timeout | undefined;
  private rounds = 0;

  constructor(private readonly intervalMs: number = EXIT_CHECK_MS) {}

  /**
   * Call `onExit` once, when `pid` no longer runs the process that started at `startTicks`.
   * Returns a function that checks it at once (whole: start time included), for a sign that it
   * may have ended.
   */
  watch(pid: number, startTicks: string, reader: ProcReader, onExit: () => void): () => void {
    const entry: Watched = { pid, startTicks, reader, onExit };
    this.watched.add(entry);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.checkAll(), this.intervalMs);
      // The host's server keeps it running; a watch alone must not.
      this.timer.unref();
    }
    return () => this.check(entry, true);
  }

  /** How many pids are watched (for tests and the docs' figures). */
  get size(): number {
    return this.watched.size;
  }

  private checkAll(): void {
    this.rounds += 1;
    const full = this.rounds % FULL_CHECK_EVERY === 0;
    for (const entry of this.watched) this.check(entry, full);
  }

  private check(entry: Watched, full: boolean): void {
    if (!this.watched.has(entry)) return;
    // Another user's process under this pid is not the one launched: gone, as for no process.
    if (!full && pidPresence(entry.pid) === 'ours') return;
    const row = entry.reader.stat(entry.pid);
    if (row !== undefined && !isDead(row) && row.startTicks === entry.startTicks) return;
    this.watched.delete(entry);
    if (this.watched.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    entry.onExit();
  }
}

/** The host's watch of its adopted processes. */
export const adoptedExits = new ExitWatch();
