/**
 * Launch records written in batches: the records asked for in one turn of the event loop are
 * written together, each to its own file (temp file, fsync, rename) with one fsync of the folder
 * for all of them. A wave of 1,000 launches made 1,000 folder fsyncs and as many mkdir and stat
 * calls before. Each caller still resolves only once its own record is durable, so a launch is
 * reported running only after its record can be found by the next host.
 */
import { writeFilesAtomic } from '../../../sdk/index.js';

interface Queued {
  readonly path: string;
  readonly data: string;
  resolve(): void;
  reject(error: unknown): void;
}

/** Writes JSON files (new ones, mode 0600) in batches of one turn. */
export class RecordBatch {
  private queued: Queued[] = [];

  /** Write `value` as JSON to the absolute `path`; resolves once it is durable. */
  write(path: string, value: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.queued.length === 0) setImmediate(() => void this.flush());
      this.queued.push({ path, data: `${JSON.stringify(value, null, 2)}\n`, resolve, reject });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queued;
    this.queued = [];
    const outcomes = await writeFilesAtomic(batch, { mode: 0o600 });
    batch.forEach((entry, index) => {
      const outcome = outcomes[index];
      if (outcome?.status === 'rejected') entry.reject(outcome.reason);
      else entry.resolve();
    });
  }
}
