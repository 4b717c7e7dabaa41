/**
 * A scan worker: reads the directories it is given with synchronous system calls (no thread
 * pool round trip per link, which is what made a naive async walk 5× slower than `find`) and
 * answers in messages of a few hundred links: the links with their targets, the subdirectories
 * to walk, and what could not be read. Directory links are links here, never descended.
 */
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { isAsciiLatin1, joinLatin1, splitLatin1, utf8OfLatin1 } from './scan-codec.js';
import { TwoInARow, WaitMeter } from './wait-meter.js';

/** A job: directory paths, joined (scan-codec.ts). */
export interface ScanJob {
  readonly dirs: string;
}

/**
 * What a worker is told once, at its start. Work the caller would otherwise do per link on its
 * own thread is done here, on the scan's cores: links whose target starts with none of
 * `targetPrefixes` (latin1 byte strings) and whose path does not match `keepPath` are only
 * counted, and with `checkTargets` each link handed over says whether its target exists.
 */
export interface ScanSetup {
  readonly targetPrefixes: readonly string[] | null;
  readonly keepPath: RegExp | null;
  readonly checkTargets: boolean;
  /**
   * Real paths (latin1 byte strings) every directory read must lie within, or null for no bound:
   * each directory's real path is taken just before it is read, so one swapped for a symlink out
   * of the allowed roots after it was listed is refused, not followed.
   */
  readonly confines: readonly string[] | null;
}

/**
 * An answer: (path, target) pairs and subdirectories, each list joined (scan-codec.ts); errors;
 * `done` ends the job. `waiting` says that the worker's recent work waited on storage (another
 * worker would overlap those waits), or that this cannot be measured here.
 * `targetExists` holds a byte per link (1: the target exists) when targets are checked, and
 * `passedOver` counts the links the prefix filter left out.
 */
export interface ScanAnswer {
  readonly links: string;
  readonly targetExists: Uint8Array | null;
  readonly passedOver: number;
  readonly subdirs: string;
  readonly errors: Array<{ path: string; error: string }>;
  readonly done: boolean;
  readonly waiting: boolean;
}

// Links per message: the main thread handles one message per event-loop turn (decoding it and, in
// a repair, checking every link), so a message stays small enough for that turn to be short even
// before the JIT has warmed up. Measured (fresh host, dry-run repair of 200,000 links, /health
// every 10 ms from another process, six hosts each): max latency median 17.7 ms at 2,048, 11 ms
// at 512; the repair takes as long.
const LINKS_PER_MESSAGE = 512;

// One options object for every file system call of the walk. Node reads every call's options in
// one shared function, whose property reads turn megamorphic (a slow lookup on each call) once it
// has seen five shapes of object: the worker's start brings two, and the walk had brought three
// (readdir's object, readlink's, the wait meter's string option copied into one), so every link
// paid that lookup (150 instructions a link, valgrind on 200,000 links). The options a call does
// not know are ignored.
const FS_OPTIONS = { withFileTypes: true, encoding: 'latin1' } as const;

// Paths are held as latin1 text, one character per byte: lossless for names that are not UTF-8,
// and a string costs far less to make than a Buffer (measured on 200,000 links, one worker: user
// CPU 499 → 307 ms). Node encodes a string path as UTF-8 for the system call, which gives the
// same bytes only while they are ASCII; any other path goes to the call as its bytes.
function systemPath(path: string): string | Buffer {
  return isAsciiLatin1(path) ? path : Buffer.from(path, 'latin1');
}

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

function kindOf(entry: Dirent, path: string): 'link' | 'dir' | 'other' {
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'other';
  try {
    const stats = lstatSync(systemPath(path));
    return stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'dir' : 'other';
  } catch {
    return 'other';
  }
}

// A scan keeps every core busy, and the host's event loop must still answer within milliseconds:
// on Linux a thread has its own nice value (/proc/thread-self names its id), so the workers step
// back whenever the main thread wants a core. Elsewhere they run at the host's priority.
function yieldToTheHost(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, 10);
  } catch {
    // No /proc (not Linux) or not allowed: the scan still works, only less politely.
  }
}

yieldToTheHost();

const setup = workerData as ScanSetup;

function wanted(path: string, target: string): boolean {
  const prefixes = setup.targetPrefixes;
  if (prefixes === null) return true;
  for (const prefix of prefixes) if (target.startsWith(prefix)) return true;
  return setup.keepPath?.test(path) === true;
}

// stat follows the link itself, so a relative target is read from the link's folder exactly as
// the kernel reads it; a loop or a denied folder counts as missing, as on the main thread.
function targetExists(path: string | Buffer): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

// Null when the directory's real path lies within a confine, else the error to report.
function outsideConfines(dir: string): string | null {
  const confines = setup.confines;
  if (confines === null) return null;
  let real: string;
  try {
    real = realpathSync.native(systemPath(dir), FS_OPTIONS);
  } catch (error) {
    return code(error);
  }
  for (const base of confines)
    if (real === base || real.startsWith(base.endsWith('/') ? base : `${base}/`)) return null;
  return 'outside stackd.symlinks.allowed_roots by its real path; not entered';
}

/** A directory's entries, or the error to report for it. */
function entriesOf(dir: string): Dirent[] | string {
  const refusal = outsideConfines(dir);
  if (refusal !== null) return refusal;
  try {
    return readdirSync(systemPath(dir), FS_OPTIONS);
  } catch (error) {
    return code(error);
  }
}

// Waiting is judged over at least this much work (25 of the kernel's 4 ms ticks). A worker waits
// on storage when it fetches from the disk at this rate (a cold cache: ~10 MB/s per worker here,
// none warm), or sleeps through this share of its work (a network or FUSE file system).
const WAIT_MEASURED_OVER_MS = 100;
const FETCHED_BYTES_PER_SEC_WAITING = 1024 * 1024;
const SLEPT_SHARE_WAITING = 0.25;

const meter = WaitMeter.create();
const waitsInARow = new TwoInARow();

/** Whether this worker waits on storage: in its last two readings (TwoInARow says why). */
function waiting(): boolean {
  if (meter === null) return true;
  const reading = meter.read(WAIT_MEASURED_OVER_MS);
  if (reading === null) return false;
  return waitsInARow.next(
    reading.readBytesPerSec >= FETCHED_BYTES_PER_SEC_WAITING ||
      reading.sleptShare > SLEPT_SHARE_WAITING,
  );
}

// The message being filled. It lives at module level, and `send`, `readLink` and `readDirectory`
// are module functions: a closure made per job is a new call target each time, and the job loop's
// optimized code, which had inlined the last one, was thrown away and compiled again (about 65 ms
// of the compiler's CPU on a walk of 200,000 links).
/** Path, target, path, target…: joined into one string per message. */
const links: string[] = [];
const subdirs: string[] = [];
const exists: number[] = [];
let passedOver = 0;
let errors: ScanAnswer['errors'] = [];

function send(done: boolean): void {
  if (done) meter?.end();
  const answer: ScanAnswer = {
    links: joinLatin1(links),
    targetExists: setup.checkTargets ? Uint8Array.from(exists) : null,
    passedOver,
    subdirs: joinLatin1(subdirs),
    errors,
    done,
    waiting: waiting(),
  };
  links.length = 0;
  subdirs.length = 0;
  errors = [];
  exists.length = 0;
  passedOver = 0;
  parentPort?.postMessage(answer);
}

/** Read one link (`system`: its path as the system call takes it) into the message. */
function readLink(path: string, system: string | Buffer): void {
  try {
    const target = readlinkSync(system, FS_OPTIONS);
    if (!wanted(path, target)) {
      passedOver += 1;
      return;
    }
    if (setup.checkTargets) exists.push(targetExists(system) ? 1 : 0);
    links.push(path, target);
    if (links.length >= 2 * LINKS_PER_MESSAGE) send(false);
  } catch (error) {
    errors.push({ path: utf8OfLatin1(path), error: code(error) });
  }
}

function readDirectory(dir: string): void {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  const entries = entriesOf(dir);
  if (typeof entries === 'string') {
    errors.push({ path: utf8OfLatin1(dir), error: entries });
    return;
  }
  // An ASCII folder's entries are checked by their names alone, which are short.
  const prefixAscii = isAsciiLatin1(prefix);
  for (const entry of entries) {
    const path = prefix + entry.name;
    const kind = kindOf(entry, path);
    if (kind === 'dir') subdirs.push(path);
    else if (kind === 'link')
      readLink(path, prefixAscii && isAsciiLatin1(entry.name) ? path : systemPath(path));
  }
}

parentPort?.on('message', (job: ScanJob) => {
  meter?.begin();
  for (const dir of splitLatin1(job.dirs)) readDirectory(dir);
  send(true);
});
