/**
 * Walk symlink trees fast without holding them or the event loop: worker threads read
 * directories with synchronous system calls (scan-worker.ts), several at once (parallel IO helps
 * a cold cache), and hand back packed batches of a few thousand links; each batch goes to the
 * caller, and a worker gets its next directories only once the caller is done with its last
 * batch (backpressure). Directory symlinks are reported as links and never followed, so loops
 * cannot trap the walk. Paths are kept as bytes (names need not be UTF-8); `path` is their text.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { isAsciiLatin1, PackWriter, unpackLatin1, utf8OfLatin1 } from './scan-codec.js';
import type { ScanAnswer } from './scan-worker.js';

/** One symlink found. */
export interface FoundLink {
  /** The link's path as bytes, for every file system call. */
  readonly pathBytes: Buffer;
  /** The path as text (invalid UTF-8 shown as U+FFFD), for reports. */
  readonly path: string;
  /** The target as bytes, exactly as stored. */
  readonly targetBytes: Buffer;
  /** The target as text. */
  readonly target: string;
  /** Whether the target's bytes are valid UTF-8 (`target` is then exact). */
  readonly targetIsUtf8: boolean;
}

/**
 * A link as it came from a worker: path and target held as latin1 text (one character per byte).
 * Nearly every path is ASCII, its own UTF-8 text; bytes are made only when a caller asks.
 */
class ScannedLink implements FoundLink {
  constructor(
    private readonly rawPath: string,
    private readonly rawTarget: string,
  ) {}

  get path(): string {
    return utf8OfLatin1(this.rawPath);
  }

  get target(): string {
    return utf8OfLatin1(this.rawTarget);
  }

  get pathBytes(): Buffer {
    return Buffer.from(this.rawPath, 'latin1');
  }

  get targetBytes(): Buffer {
    return Buffer.from(this.rawTarget, 'latin1');
  }

  get targetIsUtf8(): boolean {
    return (
      isAsciiLatin1(this.rawTarget) || Buffer.from(this.target, 'utf8').equals(this.targetBytes)
    );
  }
}

/** A directory or link that could not be read. */
export interface ScanError {
  readonly path: string;
  readonly error: string;
}

/** How far a scan got. */
export interface ScanProgress {
  readonly directories: number;
  readonly links: number;
}

/** Options of a scan. */
export interface ScanOptions {
  /** Worker threads (0: as many as cores, at most 4). */
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  /** Called for every unreadable directory or link; the scan goes on. */
  readonly onError?: (error: ScanError) => void;
  /** Called after each directory. */
  readonly onProgress?: (progress: ScanProgress) => void;
}

const DIRS_PER_JOB = 64;

function packAll(items: readonly string[]): Uint8Array {
  const writer = new PackWriter();
  for (const item of items) writer.addLatin1(item);
  return writer.take();
}

function decodeLinks(packed: Uint8Array): FoundLink[] {
  const items = unpackLatin1(packed);
  const found: FoundLink[] = [];
  for (let index = 0; index + 1 < items.length; index += 2)
    found.push(new ScannedLink(items[index] as string, items[index + 1] as string));
  return found;
}

/**
 * Walk `roots` (existing directories) and hand every batch of links to `onBatch`. Resolves when
 * every directory was read (or the signal aborted).
 */
export async function walkLinks(
  roots: readonly string[],
  onBatch: (links: FoundLink[]) => Promise<void> | void,
  options: ScanOptions,
): Promise<ScanProgress> {
  const count = options.concurrency > 0 ? options.concurrency : Math.min(4, availableParallelism());
  // Directories to read, as latin1 byte strings (the workers' form).
  const pending: string[] = roots.map((root) => Buffer.from(root).toString('latin1'));
  const workers = Array.from(
    { length: Math.min(count, 16) },
    () => new Worker(new URL('./scan-worker.js', import.meta.url)),
  );
  const idle = new Set<Worker>(workers);
  // A MessagePort hands over every queued message in one go: answers wait here and are handled
  // one per event-loop turn, so a flood of batches cannot hold off requests (and one batch at a
  // time reaches the caller, in order).
  const answers: Array<{ worker: Worker; answer: ScanAnswer }> = [];
  let handling = false;
  let directories = 0;
  let links = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      // Nothing out with a worker and nothing waiting to be handled.
      const settled = (): boolean =>
        idle.size === workers.length && answers.length === 0 && !handling;
      const dispatch = (): void => {
        if (options.signal?.aborted === true) {
          if (settled()) resolve();
          return;
        }
        for (const worker of idle) {
          if (pending.length === 0) break;
          const size = Math.max(
            1,
            Math.min(DIRS_PER_JOB, Math.ceil(pending.length / workers.length)),
          );
          // From the end: depth first, which keeps the queue short.
          const dirs = pending.splice(pending.length - size, size);
          idle.delete(worker);
          directories += dirs.length;
          const packed = packAll(dirs);
          worker.postMessage({ dirs: packed }, [packed.buffer] as never);
        }
        if (settled() && pending.length === 0) resolve();
      };
      const handle = async (): Promise<void> => {
        handling = true;
        for (let next = answers.shift(); next !== undefined; next = answers.shift()) {
          const { worker, answer } = next;
          for (const dir of unpackLatin1(answer.subdirs)) pending.push(dir);
          for (const error of answer.errors) options.onError?.(error);
          const found = decodeLinks(answer.links);
          links += found.length;
          if (found.length > 0) await onBatch(found);
          options.onProgress?.({ directories, links });
          if (answer.done) idle.add(worker);
          dispatch();
          await new Promise<void>((turn) => setImmediate(turn));
        }
        handling = false;
        dispatch();
      };
      for (const worker of workers) {
        worker.on('error', reject);
        worker.on('message', (answer: ScanAnswer) => {
          answers.push({ worker, answer });
          if (!handling) handle().catch(reject);
        });
      }
      dispatch();
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return { directories, links };
}
