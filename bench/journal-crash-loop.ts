/**
 * The journal under a crash loop: 50 supervised processes that exit 300 ms after each start and
 * are restarted at once, so their state changes reach the journal as a steady storm of small
 * events. Counts the journal's commits (its own counter, /health?detail=true) and every fsync of
 * the host (strace -f -c attached for the window), to show the commits are bounded by the commit
 * interval rather than following the events.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { builtinPlugin } from '../test/helpers/fixture-paths.js';
import { getJson, processBlocks, startBenchHost, stopHost } from './lib/host.js';
import { cpuMs } from './lib/proc-sample.js';

/** What one crash-loop window measured. */
export interface CrashLoopRound {
  readonly eventsPerSec: number;
  readonly commitsPerSec: number;
  /** NaN when strace could not attach. */
  readonly fsyncsPerSec: number;
  readonly hostCpuPercent: number;
}

interface JournalSize {
  events: number;
  newest_cursor: number;
  commits: number;
}

/** Count fsync/fdatasync calls of `pid` and its threads over `seconds` (NaN without strace). */
async function countFsyncs(pid: number, seconds: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'stackd-strace-'));
  const out = join(dir, 'summary');
  try {
    const tracer = spawn(
      'strace',
      ['-f', '-c', '-e', 'trace=fsync,fdatasync', '-o', out, '-p', String(pid)],
      { stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) => {
      tracer.once('exit', (code) => resolve(code));
      tracer.once('error', () => resolve(null));
    });
    await sleep(seconds * 1000);
    tracer.kill('SIGINT');
    await exited;
    const summary = readFileSync(out, 'utf8');
    // The summary's rows: % time, seconds, usecs/call, calls, [errors,] syscall.
    const calls = [
      ...summary.matchAll(/^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?f(?:data)?sync$/gm),
    ];
    return calls.reduce((sum, match) => sum + Number(match[1]), 0);
  } catch {
    return Number.NaN;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One host with `processes` crash-looping processes, measured for `seconds`. */
export async function crashLoopRound(options: {
  processes: number;
  seconds: number;
}): Promise<CrashLoopRound> {
  const blocks = processBlocks(options.processes, {
    prefix: 'Crash',
    enabled: true,
    command: ['/bin/sh', '-c', 'sleep 0.3; exit 1'],
  });
  for (const block of Object.values(blocks))
    Object.assign(block as Record<string, unknown>, {
      restart_policy: { base_sec: 0.05, max_restarts: 1_000_000, window_seconds: 1 },
    });
  const host = await startBenchHost({ stackd: { supervisor: { start_check_ms: 50 } }, ...blocks }, [
    builtinPlugin('supervisor'),
  ]);
  try {
    const pid = host.child.pid ?? 0;
    const size = async (): Promise<JournalSize> =>
      (await getJson<{ detail: { journal: JournalSize } }>(host, '/health?detail=true')).detail
        .journal;
    // Let the loop get going before the window.
    await sleep(3000);
    const before = await size();
    const cpuBefore = cpuMs(pid);
    const started = performance.now();
    const fsyncs = await countFsyncs(pid, options.seconds);
    const seconds = (performance.now() - started) / 1000;
    const cpu = ((cpuMs(pid) - cpuBefore) / (seconds * 1000)) * 100;
    const after = await size();
    return {
      eventsPerSec: (after.newest_cursor - before.newest_cursor) / seconds,
      // The /health?detail=true reads themselves are no commits; the last one may follow.
      commitsPerSec: (after.commits - before.commits) / seconds,
      fsyncsPerSec: fsyncs / seconds,
      hostCpuPercent: cpu,
    };
  } finally {
    await stopHost(host);
  }
}
