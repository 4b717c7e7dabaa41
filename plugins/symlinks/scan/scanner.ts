/**
 * Walk symlink trees fast without holding them or the event loop: worker threads read
 * directories with synchronous system calls (scan-worker.ts), several at once only while they
 * wait on storage (parallel IO helps a cold cache), and hand back batches of a few hundred links;
 * each batch goes to the caller, and a worker gets its next directories only once the caller is
 * done with its last batch (backpressure). Directory symlinks are reported as links and never
 * followed, so loops cannot trap the walk. Paths are kept as bytes (names need not be UTF-8);
 * `path` is their text.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { isAsciiLatin1, joinLatin1, splitLatin1, utf8OfLatin1 } from './scan-codec.js';
import type { ScanAnswer, ScanSetup } from './scan-worker.js';

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
  /** Whether the target exists (following the link), when the scan checked targets. */
  readonly targetExists: boolean | undefined;
}

/**
 * A link as it came from a worker: path and target held as latin1 text (one character per byte).
 * Nearly every path is ASCII, its own UTF-8 text; bytes are made only when a caller asks.
 */
class ScannedLink implements FoundLink {
  constructor(
    private readonly rawPath: string,
    private readonly rawTarget: string,
    readonly targetExists: boolean | undefined,
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

/** How far a finished scan got, and how many worker threads it started. */
export interface ScanSummary extends ScanProgress {
  readonly workers: number;
}

/** Options of a scan. */
export interface ScanOptions {
  /**
   * Worker threads at most (0: as many as cores, at most 4). A scan starts one and adds another
   * only while its workers wait on storage (scan-worker.ts says when).
   */
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  /** Called for every unreadable directory or link; the scan goes on. */
  readonly onError?: (error: ScanError) => void;
  /** Called after each batch. */
  readonly onProgress?: (progress: ScanProgress) => void;
  /**
   * Hand over only links whose target starts with one of `targetPrefixes` (as text) or whose
   * path matches `keepPath`; the others are only counted (`passedOver`). The workers test this,
   * so links the caller would skip never cost its thread anything.
   */
  readonly targetFilter?: {
    readonly targetPrefixes: readonly string[];
    readonly keepPath?: RegExp;
  };
  /** Have the workers check every handed-over link's target (`FoundLink.targetExists`). */
  readonly checkTargets?: boolean;
  /** Real paths every directory entered must lie within (the allowed roots); none: no bound. */
  readonly confines?: readonly string[];
}

/** Called with each batch of links, and how many links the target filter passed over. */
export type OnLinkBatch = (links: FoundLink[], passedOver: number) => Promise<void> | void;

const DIRS_PER_JOB = 64;

function decodeLinks(answer: ScanAnswer): FoundLink[] {
  // An answer with no links is common (the last of a job, folders of folders): splitLatin1 gives
  // it an empty literal, another kind of array than split's, and the optimized loop below was
  // thrown away at the first one.
  if (answer.links === '') return [];
  const items = splitLatin1(answer.links);
  const exists = answer.targetExists;
  const found: FoundLink[] = [];
  for (let index = 0; index + 1 < items.length; index += 2)
    found.push(
      new ScannedLink(
        items[index] as string,
        items[index + 1] as string,
        exists === null ? undefined : exists[index / 2] === 1,
      ),
    );
  return found;
}

function setupOf(options: ScanOptions): ScanSetup {
  const filter = options.targetFilter;
  return {
    targetPrefixes:
      filter === undefined
        ? null
        : filter.targetPrefixes.map((prefix) => Buffer.from(prefix).toString('latin1')),
    keepPath: filter?.keepPath ?? null,
    checkTargets: options.checkTargets === true,
    confines:
      options.confines === undefined || options.confines.length === 0
        ? null
        : options.confines.map((base) => Buffer.from(base).toString('latin1')),
  };
}

/**
 * Walk `roots` (existing directories) and hand every batch of links to `onBatch`. Resolves when
 * every directory was read (or the signal aborted).
 */
export async function walkLinks(
  roots: readonly string[],
  onBatch: OnLinkBatch,
  options: ScanOptions,
): Promise<ScanSummary> {
  return await new LinkWalk(roots, onBatch, options).run();
}

/** One walk: its worker threads, the directories still to read, and the answers to handle. */
class LinkWalk {
  private readonly count: number;
  private readonly setup: ScanSetup;
  /** Directories to read, as latin1 byte strings (the workers' form). */
  private readonly pending: string[];
  private readonly workers: Worker[] = [];
  private readonly idle = new Set<Worker>();
  /**
   * A MessagePort hands over every queued message in one go: answers wait here and are handled
   * one per event-loop turn, so a flood of batches cannot hold off requests (and one batch at a
   * time reaches the caller, in order).
   */
  private readonly answers: Array<{ worker: Worker; answer: ScanAnswer }> = [];
  private handling = false;
  private finished = false;
  private directories = 0;
  private links = 0;
  private resolve: () => void = () => undefined;
  private reject: (error: unknown) => void = () => undefined;

  constructor(
    roots: readonly string[],
    private readonly onBatch: OnLinkBatch,
    private readonly options: ScanOptions,
  ) {
    const wanted =
      options.concurrency > 0 ? options.concurrency : Math.min(4, availableParallelism());
    this.count = Math.min(wanted, 16);
    this.setup = setupOf(options);
    this.pending = roots.map((root) => Buffer.from(root).toString('latin1'));
  }

  async run(): Promise<ScanSummary> {
    try {
      await new Promise<void>((resolve, reject) => {
        this.resolve = resolve;
        this.reject = reject;
        this.startWorker();
      });
    } finally {
      this.finished = true;
      await Promise.all(this.workers.map((worker) => worker.terminate()));
    }
    return { directories: this.directories, links: this.links, workers: this.workers.length };
  }

  private finish(): void {
    this.finished = true;
    this.resolve();
  }

  /** Nothing out with a worker and nothing waiting to be handled. */
  private settled(): boolean {
    return this.idle.size === this.workers.length && this.answers.length === 0 && !this.handling;
  }

  private dispatch(): void {
    if (this.finished) return;
    if (this.options.signal?.aborted === true) {
      if (this.settled()) this.finish();
      return;
    }
    const { pending } = this;
    for (const worker of this.idle) {
      if (pending.length === 0) break;
      // Sized for as many workers as may run, so a worker added later finds work left.
      const size = Math.max(1, Math.min(DIRS_PER_JOB, Math.ceil(pending.length / this.count)));
      // From the end: depth first, which keeps the queue short.
      const dirs = pending.splice(pending.length - size, size);
      this.idle.delete(worker);
      this.directories += dirs.length;
      worker.postMessage({ dirs: joinLatin1(dirs) });
    }
    if (this.settled() && pending.length === 0) this.finish();
  }

  // The work on each answer is in small methods, not in this async loop: the compiler made one
  // large function of the loop with all it calls (48 ms of its CPU on a walk of 200,000 links)
  // and threw it away again at the first path it had not seen run.
  private async handle(): Promise<void> {
    this.handling = true;
    for (let next = this.answers.shift(); next !== undefined; next = this.answers.shift()) {
      const found = this.take(next.answer);
      const { passedOver } = next.answer;
      if (found.length > 0 || passedOver > 0) await this.onBatch(found, passedOver);
      this.settle(next.worker, next.answer);
      await new Promise<void>((turn) => setImmediate(turn));
    }
    this.handling = false;
    this.dispatch();
  }

  /** An answer's directories, errors and links; the links are returned. */
  private take(answer: ScanAnswer): FoundLink[] {
    const { options, pending } = this;
    for (const dir of splitLatin1(answer.subdirs)) pending.push(dir);
    for (const error of answer.errors) options.onError?.(error);
    const found = decodeLinks(answer);
    this.links += found.length + answer.passedOver;
    return found;
  }

  /** After an answer was handled: progress, the worker free again, and the next jobs. */
  private settle(worker: Worker, answer: ScanAnswer): void {
    this.options.onProgress?.({ directories: this.directories, links: this.links });
    if (answer.done) this.idle.add(worker);
    if (answer.waiting) this.addWorker();
    this.dispatch();
  }

  /**
   * Another worker, while a worker says it waits on storage (a second one then overlaps those
   * waits) and there is work for it. On a warm cache one worker keeps up, and another would only
   * add its start (~60 ms of CPU here) and the crossing of threads to the CPU the walk costs.
   * Called once per answer, so at most one start per event-loop turn: a start costs the event
   * loop several milliseconds.
   */
  private addWorker(): void {
    if (this.workers.length < this.count && this.pending.length > 0) this.startWorker();
  }

  /** Start a worker and put it to work at once. */
  private startWorker(): void {
    if (this.finished) return;
    const worker = new Worker(new URL('./scan-worker.js', import.meta.url), {
      workerData: this.setup,
    });
    this.workers.push(worker);
    worker.on('error', (error) => this.reject(error));
    worker.on('message', (answer: ScanAnswer) => {
      this.answers.push({ worker, answer });
      if (!this.handling) this.handle().catch((error: unknown) => this.reject(error));
    });
    this.idle.add(worker);
    this.dispatch();
  }
}
