/**
 * Every launched process carries `STACKD_LAUNCH=<supervisor id>:<launch id>` in its environment,
 * and its descendants inherit it. /proc/<pid>/environ shows the environment a process was
 * started with, so the marker finds what the process group cannot: a grandchild that called
 * setsid(), one whose parent died and was reparented to init, the members of a group whose
 * leader exited, and processes launched just before a host SIGKILL (nothing recorded yet).
 * The supervisor id is random per data dir, so hosts on other data dirs are never touched; a
 * program that clears its environment is still covered by the process-group records.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { compareText } from '../../../sdk/index.js';

/** The environment variable of the marker. */
export const LAUNCH_ENV = 'STACKD_LAUNCH';

/** A new launch id. */
export function newLaunchId(): string {
  return randomUUID().slice(0, 18);
}

const ENTRY = Buffer.from(`${LAUNCH_ENV}=`);
/** Pids read between two yields to the event loop (a read costs ~20 µs). */
const PIDS_PER_TURN = 64;
/** Reused for every environ read; grows to the largest environment seen. */
let environBuffer = Buffer.allocUnsafe(64 * 1024);

/**
 * One process's start environment, read synchronously into the reused buffer: /proc files are
 * generated in memory, and `fs.readFile` of a file /proc reports as empty allocates a fresh
 * 64 KiB chunk per read — a stop wave of 50 processes scanning ~200 pids each kept 150 MiB of
 * such buffers alive until the next full GC. Returns the bytes read, or 0 when it is gone.
 */
function readEnviron(pid: number): number {
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/environ`, 'r');
    let length = 0;
    for (;;) {
      if (length === environBuffer.length) {
        const grown = Buffer.allocUnsafe(environBuffer.length * 2);
        environBuffer.copy(grown, 0, 0, length);
        environBuffer = grown;
      }
      const read = readSync(fd, environBuffer, length, environBuffer.length - length, null);
      if (read === 0) return length;
      length += read;
    }
  } catch {
    return 0; // exited, or not ours to read
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The marker value in a NUL-separated environment block, or undefined. */
function markerIn(environ: Buffer, length: number): string | undefined {
  let at = environ.indexOf(ENTRY);
  while (at >= 0 && at < length) {
    if (at === 0 || environ[at - 1] === 0) {
      const start = at + ENTRY.length;
      const end = environ.indexOf(0, start);
      return environ.toString('latin1', start, end < 0 || end > length ? length : end);
    }
    at = environ.indexOf(ENTRY, at + 1);
  }
  return undefined;
}

/**
 * One scan's marked processes, sorted by marker: the processes of every marker beginning with a
 * prefix sit together, found by a binary search. Every stop of a wave asks the shared scan for
 * its own launch; walking the whole table per question was O(n) each and O(n²) per wave (with
 * 200 restarts, a third of everything the host allocated in the wave).
 */
interface MarkerScan {
  readonly markers: readonly string[];
  readonly pids: readonly number[];
}

function sortedScan(found: Map<number, string>): MarkerScan {
  const order = [...found].sort(([, a], [, b]) => compareText(a, b));
  return { markers: order.map(([, marker]) => marker), pids: order.map(([pid]) => pid) };
}

/** Call `each` for every process of `scan` whose marker begins with `prefix`. */
function withPrefix(
  scan: MarkerScan,
  prefix: string,
  each: (pid: number, marker: string) => void,
): void {
  const { markers, pids } = scan;
  let low = 0;
  let high = markers.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((markers[middle] ?? '') < prefix) low = middle + 1;
    else high = middle;
  }
  for (let index = low; index < markers.length; index += 1) {
    const marker = markers[index] ?? '';
    if (!marker.startsWith(prefix)) break;
    each(pids[index] ?? 0, marker);
  }
}

/** Every process (not this one) whose start environment carries a marker, with the marker. */
async function scanMarkers(): Promise<MarkerScan> {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return sortedScan(new Map());
  }
  const found = new Map<number, string>();
  let sinceYield = 0;
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    const length = readEnviron(pid);
    const marker = length > 0 ? markerIn(environBuffer, length) : undefined;
    if (marker !== undefined) found.set(pid, marker);
    if (++sinceYield === PIDS_PER_TURN) {
      sinceYield = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return sortedScan(found);
}

let running: Promise<MarkerScan> | undefined;
let following: Promise<MarkerScan> | undefined;

/**
 * A scan that began after this call: requests arriving while one runs share the next one, so
 * a wave of 50 stops costs two scans, not fifty, and none misses a process started before it
 * asked.
 */
function freshScan(): Promise<MarkerScan> {
  if (running === undefined) {
    running = scanMarkers().finally(() => (running = undefined));
    return running;
  }
  following ??= running
    .catch(() => undefined)
    .then(() => {
      following = undefined;
      return freshScan();
    });
  return following;
}

/** Pids (not ours) whose start environment carries a marker beginning with `prefix`. */
export async function markedProcesses(prefix: string): Promise<number[]> {
  const found: number[] = [];
  withPrefix(await freshScan(), prefix, (pid) => found.push(pid));
  return found;
}

/** The marker in one process's start environment, or undefined (none, gone, or not readable). */
export function markerOf(pid: number): string | undefined {
  const length = readEnviron(pid);
  return length > 0 ? markerIn(environBuffer, length) : undefined;
}

/** Marked processes (not ours) with their markers, for markers beginning with `prefix`. */
export async function markedProcessesWithMarkers(prefix: string): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  withPrefix(await freshScan(), prefix, (pid, marker) => found.set(pid, marker));
  return found;
}
