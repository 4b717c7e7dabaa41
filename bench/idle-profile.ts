/**
 * `node dist/bench/idle-profile.js [PROCESSES] [SECONDS]`: what wakes an idle stackd host. Starts
 * the real host (every plugin) with PROCESSES (default 50) `sleep` processes and no client, waits
 * for them to run and for boot work to end, then traces it with strace for SECONDS (default 20)
 * twice: `-f -c` (syscall counts) and `-f -e trace=…` (event-loop waits, /proc and /sys opens,
 * reads, directory scans, fsyncs and lock directories), and prints a JSON summary: wake-ups per
 * second of the main event loop, the timeouts it slept with, opens grouped by path pattern.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { stopAll } from './lib/cleanup.js';
import { getJson, processBlocks, startBenchHost, stopHost } from './lib/host.js';
import { waitFor } from './lib/wait.js';
import { tempDir } from '../test/helpers/start-host.js';

const run = promisify(execFile);
const count = Number(process.argv[2] ?? 50);
const seconds = Number(process.argv[3] ?? 20);
const TRACED = 'epoll_wait,epoll_pwait,openat,pread64,read,getdents64,fsync,mkdir,rmdir';

/** `strace` for `seconds` on every thread of `pid`, output to `file` (SIGINT ends it). */
async function strace(pid: number, args: readonly string[], file: string): Promise<void> {
  await run('timeout', [
    '-s',
    'INT',
    String(seconds),
    'strace',
    '-f',
    '-o',
    file,
    ...args,
    '-p',
    String(pid),
  ]).catch((error: { code?: unknown }) => {
    if (error.code !== 124) throw error; // timeout's own code after it stopped strace
  });
}

function summarize(text: string, mainPid: number): Record<string, unknown> {
  const lines = text.split('\n');
  const main = lines.filter((line) => line.startsWith(`${mainPid} `));
  // A wake-up: the main loop's epoll wait that slept (timeout > 0) ended.
  const waits = main.filter((line) => /epoll_p?wait\(/.test(line) && !/, 0, /.test(line));
  const timeouts = new Map<string, number>();
  for (const line of waits) {
    const timeout = /\], \d+, (-?\d+)/.exec(line)?.[1] ?? 'unfinished';
    timeouts.set(timeout, (timeouts.get(timeout) ?? 0) + 1);
  }
  const opens = new Map<string, number>();
  for (const line of lines) {
    const path = /openat\([^"]*"([^"]+)"/.exec(line)?.[1];
    if (path === undefined) continue;
    // A segment with a digit names one process, launch or device: `*` groups them.
    const pattern = path
      .split('/')
      .map((segment) => (/\d/.test(segment) ? '*' : segment))
      .join('/');
    opens.set(pattern, (opens.get(pattern) ?? 0) + 1);
  }
  const count = (name: string): number => lines.filter((line) => line.includes(` ${name}(`)).length;
  return {
    main_loop_wakeups: waits.length,
    main_loop_wakeups_per_s: Math.round((waits.length / seconds) * 100) / 100,
    main_loop_sleep_timeouts_ms: Object.fromEntries([...timeouts].sort((a, b) => b[1] - a[1])),
    opens_by_path: Object.fromEntries([...opens].sort((a, b) => b[1] - a[1])),
    pread64: count('pread64'),
    getdents64: count('getdents64'),
    fsync: count('fsync'),
    mkdir: count('mkdir'),
    rmdir: count('rmdir'),
  };
}

const host = await startBenchHost(
  processBlocks(count, { enabled: true, command: ['sleep', '86400'] }),
);
const dir = tempDir('stackd-idle-profile-');
try {
  await waitFor(
    () => getJson<{ processes: { status: string }[] }>(host, '/process/processes'),
    (list) => list.processes.filter((entry) => entry.status === 'running').length === count,
    120_000,
    500,
  );
  await sleep(15_000); // boot work over: start checks, first history rows
  const pid = host.child.pid ?? Number.NaN;
  await strace(pid, ['-c'], join(dir, 'counts.txt'));
  await strace(pid, ['-tt', '-e', `trace=${TRACED}`], join(dir, 'trace.txt'));
  const summary = {
    processes: count,
    seconds,
    ...summarize(readFileSync(join(dir, 'trace.txt'), 'utf8'), pid),
    syscall_counts: readFileSync(join(dir, 'counts.txt'), 'utf8'),
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
} finally {
  await stopHost(host);
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
}
