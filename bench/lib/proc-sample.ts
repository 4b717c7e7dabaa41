/**
 * Resident memory and CPU time of processes from /proc (Linux only), and an idle-CPU sampler.
 * CPU times are in clock ticks (USER_HZ, 100 on Linux), so a 10 s window resolves 0.1 %.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const TICK_MS = 10;

/** Whether `pid` is alive (signal 0). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function statusKiB(pid: number, field: string): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match?.[1] === undefined ? Number.NaN : Number(match[1]);
  } catch {
    return Number.NaN;
  }
}

/** VmRSS of `pid` in KiB (NaN when the process is gone). */
export function rssKiB(pid: number): number {
  return statusKiB(pid, 'VmRSS');
}

/**
 * RssAnon of `pid` in KiB: its private memory (heap, stacks, wasm), without the file pages of
 * the node binary and libraries that every node process maps and shares.
 */
export function anonKiB(pid: number): number {
  return statusKiB(pid, 'RssAnon');
}

/** utime + stime of `pid` in ms (0 when it is gone). */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // Fields after the command name "(...)": state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU of `pid` over `windowMs` as a percentage of one core, with its RSS at the end (MiB). */
export async function sampleIdle(
  pid: number,
  windowMs: number,
): Promise<{ cpu_percent: number; rss_mib: number; anon_mib: number }> {
  const before = cpuMs(pid);
  const start = performance.now();
  await sleep(windowMs);
  const used = cpuMs(pid) - before;
  const elapsed = performance.now() - start;
  return {
    cpu_percent: Math.round((used / elapsed) * 100 * 1000) / 1000,
    rss_mib: Math.round((rssKiB(pid) / 1024) * 10) / 10,
    anon_mib: Math.round((anonKiB(pid) / 1024) * 10) / 10,
  };
}

/**
 * Wait until freshly started processes have finished booting: their summed CPU time stops
 * growing over two consecutive 250 ms samples (at most `maxMs`). Otherwise 50 node processes
 * still parsing their startup code would load the machine during the next measurement.
 */
export async function settle(pids: readonly number[], maxMs = 8000): Promise<void> {
  const total = (): number => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const deadline = performance.now() + maxMs;
  let last = total();
  let quiet = 0;
  while (quiet < 2 && performance.now() < deadline) {
    await sleep(250);
    const now = total();
    quiet = now === last ? quiet + 1 : 0;
    last = now;
  }
}

/** Resident and private memory of `pid` from /proc/<pid>/smaps_rollup, in KiB (NaN when gone). */
export function smapsKiB(pid: number): { rss: number; private: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1');
    const field = (name: string): number => {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text);
      return match?.[1] === undefined ? Number.NaN : Number(match[1]);
    };
    return { rss: field('Rss'), private: field('Private_Clean') + field('Private_Dirty') };
  } catch {
    return { rss: Number.NaN, private: Number.NaN };
  }
}

/**
 * Time on CPU of every thread of `pid` in ms, from /proc/<pid>/task/<tid>/schedstat (the
 * scheduler's nanosecond count; 0 when the process is gone). For windows where the 10 ms
 * ticks of /proc/<pid>/stat would be a large share of the figure. Threads that exit within
 * the window take their time with them: use it on servers whose threads live as long as they do.
 */
export function cpuPreciseMs(pid: number): number {
  let total = 0;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  for (const task of tasks) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'latin1');
      total += Number(text.slice(0, text.indexOf(' '))) / 1e6;
    } catch {
      // The thread exited between the listing and the read.
    }
  }
  return total;
}
