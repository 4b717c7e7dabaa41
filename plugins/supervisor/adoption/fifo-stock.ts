/**
 * Output FIFO pairs made ahead, in batches. Node has no mkfifo, and one synchronous `mkfifo`
 * process per launch cost more than the rest of the launch: measured on a loaded 2-core machine,
 * ~90 ms of blocked event loop per call, so starting 1,000 processes froze the host's API for
 * over a minute. One asynchronous `mkfifo` now makes the pairs of every launch waiting at that
 * moment (at least {@link BATCH}); the event loop keeps serving meanwhile.
 *
 * A pair waits under a staging name holding the host's pid; pairs a host left unused (it stopped
 * or crashed) are removed by the next host's first batch.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pidPresence } from '../runtime/process-group.js';

/** Pairs made at least per batch, and at most (bounds the command line). */
const BATCH = 16;
const MAX_BATCH = 512;

/**
 * `mkfifo` for `paths`. `node:child_process` is taken at the first batch, not imported at load: a
 * host that only adopts its processes launches nothing, and loading it (with the net and dgram
 * modules it needs) was part of every boot before the host could listen.
 */
async function mkfifo(paths: readonly string[]): Promise<void> {
  const { execFile } = process.getBuiltinModule('node:child_process');
  await promisify(execFile)('mkfifo', ['-m', '600', ...paths]);
}

/** The staging paths of one pair. */
export interface StagedPair {
  readonly stdout: string;
  readonly stderr: string;
}

const STAGING = /^stage-(\d+)-\d+\.(out|err)$/;

/** Made pairs of one FIFO directory. */
export class FifoStock {
  private readonly ready: StagedPair[] = [];
  private making: Promise<boolean> | undefined;
  private waiting = 0;
  private made = 0;
  private swept = false;

  constructor(private readonly dir: string) {}

  /** A fresh pair, or null where FIFOs cannot be made (no mkfifo, a read-only directory). */
  async take(): Promise<StagedPair | null> {
    this.waiting += 1;
    try {
      while (this.ready.length === 0) {
        this.making ??= this.make(Math.min(MAX_BATCH, Math.max(BATCH, this.waiting))).finally(
          () => (this.making = undefined),
        );
        if (!(await this.making)) return null;
      }
      return this.ready.shift() ?? null;
    } finally {
      this.waiting -= 1;
    }
  }

  private async make(count: number): Promise<boolean> {
    const pairs: StagedPair[] = [];
    for (let index = 0; index < count; index += 1) {
      const base = join(this.dir, `stage-${process.pid}-${(this.made += 1)}`);
      pairs.push({ stdout: `${base}.out`, stderr: `${base}.err` });
    }
    const paths = pairs.flatMap((pair) => [pair.stdout, pair.stderr]);
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      if (!this.swept) await this.sweep();
      await mkfifo(paths);
    } catch {
      await Promise.all(paths.map((path) => rm(path, { force: true }).catch(() => undefined)));
      return false;
    }
    this.ready.push(...pairs);
    return true;
  }

  /** Remove pairs staged by hosts that are gone. */
  private async sweep(): Promise<void> {
    this.swept = true;
    const names = await readdir(this.dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((name) => {
          const pid = Number(STAGING.exec(name)?.[1] ?? Number.NaN);
          return Number.isInteger(pid) && pid !== process.pid && pidPresence(pid) === 'gone';
        })
        .map((name) => rm(join(this.dir, name), { force: true })),
    );
  }
}

const stocks = new Map<string, FifoStock>();

/** The stock of a FIFO directory (one per directory for the host's life). */
export function fifoStock(dir: string): FifoStock {
  let stock = stocks.get(dir);
  if (stock === undefined) {
    stock = new FifoStock(dir);
    stocks.set(dir, stock);
  }
  return stock;
}
