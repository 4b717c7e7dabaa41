/**
 * Whether a thread's work waits on storage: how much it read from the storage itself (not the
 * page cache) and how much of its time it slept rather than ran or queued for a core (a network
 * or FUSE file system reads nothing from a local disk but sleeps). Linux keeps both per thread:
 * `read_bytes` in /proc/thread-self/io, and in /proc/thread-self/schedstat the nanoseconds on a
 * CPU, then in the run queue (the rest of the wall time the thread slept). A scan adds worker
 * threads only while its workers wait so: on a warm cache another thread only adds its start and
 * the crossing of threads to the CPU the walk costs.
 */
import { readFileSync } from 'node:fs';

/** A thread's counters at one moment. */
interface ThreadFigures {
  /** Milliseconds run or queued for a core since the thread started. */
  readonly runnableMs: number;
  /** Bytes the thread made the kernel fetch from storage. */
  readonly readBytes: number;
}

const READ_BYTES = /^read_bytes: (\d+)$/m;
// An options object, not the string: a string is copied into a new options object on every call.
const LATIN1 = { encoding: 'latin1' } as const;

/** This thread's figures, or null where the kernel does not give them. */
export function threadFigures(): ThreadFigures | null {
  try {
    const [onCpu, queued] = readFileSync('/proc/thread-self/schedstat', LATIN1).split(' ');
    const read = READ_BYTES.exec(readFileSync('/proc/thread-self/io', LATIN1));
    const runnableMs = (Number(onCpu) + Number(queued)) / 1e6;
    const readBytes = Number(read?.[1]);
    return Number.isFinite(runnableMs) && Number.isFinite(readBytes)
      ? { runnableMs, readBytes }
      : null;
  } catch {
    return null; // not Linux, or a kernel without these figures
  }
}

/** What a thread did over some stretches of its work. */
export interface WaitReading {
  readonly wallMs: number;
  /** Share (0–1) of the wall time the thread slept. */
  readonly sleptShare: number;
  /** Bytes fetched from storage per second of wall time. */
  readonly readBytesPerSec: number;
}

/**
 * Sums the stretches of a thread's work (begin … end). The kernel brings a running thread's
 * time up to date only at its clock tick (every 4 ms here), so a reading is given only over
 * stretches long enough for that to blur it little.
 */
export class WaitMeter {
  private wallMs = 0;
  private runnableMs = 0;
  private readBytes = 0;
  private since: { wall: number; figures: ThreadFigures } | null = null;

  private constructor() {}

  /** A meter, or null where the thread's figures cannot be read. */
  static create(): WaitMeter | null {
    return threadFigures() === null ? null : new WaitMeter();
  }

  begin(): void {
    const figures = threadFigures();
    this.since = figures === null ? null : { wall: performance.now(), figures };
  }

  end(): void {
    const { since } = this;
    const figures = threadFigures();
    if (since === null || figures === null) return;
    this.wallMs += performance.now() - since.wall;
    this.runnableMs += figures.runnableMs - since.figures.runnableMs;
    this.readBytes += figures.readBytes - since.figures.readBytes;
    this.since = null;
  }

  /**
   * The stretches measured since the last reading, once they add up to `minMs` (then the sums
   * start over; a stretch under way goes on); null before.
   */
  read(minMs: number): WaitReading | null {
    const open = this.since !== null;
    const wall = this.wallMs + (this.since === null ? 0 : performance.now() - this.since.wall);
    if (wall < minMs) return null;
    if (open) this.end();
    const reading: WaitReading = {
      wallMs: this.wallMs,
      sleptShare: Math.min(1, Math.max(0, (this.wallMs - this.runnableMs) / this.wallMs)),
      readBytesPerSec: (this.readBytes * 1000) / this.wallMs,
    };
    this.wallMs = 0;
    this.runnableMs = 0;
    this.readBytes = 0;
    if (open) this.begin();
    return reading;
  }
}

/**
 * Yes only for the second of two yeses in a row. On a loaded machine a warm walk sometimes
 * sleeps through a quarter of one reading's 100 ms, for some reason other than storage (the
 * tree was in the page cache; what the thread slept on was not measured): measured on a warm 200,000-link walk at load 15–17, one
 * reading in 20–60 did, never two in a row, and each time a second worker started for nothing
 * (one worker took ~1,480 ms of CPU for such a walk, two ~1,750 ms). Storage that makes a walk
 * wait (a cold disk, a network file system) does so in every reading.
 */
export class TwoInARow {
  private last = false;

  next(value: boolean): boolean {
    const both = value && this.last;
    this.last = value;
    return both;
  }
}
