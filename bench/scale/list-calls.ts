/**
 * Each supervisor's list call as its users make it: `GET /process/processes` on stackd,
 * `pm2 jlist` and `supervisorctl status` (their CLIs, each a fresh process). Wall time per call
 * and the supervisor's own CPU per call (the CLI's start-up is not the daemon's cost).
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { cpuMs } from '../lib/proc-sample.js';
import { percentile, round } from '../lib/stats.js';

const run = promisify(execFile);
const BUFFER = 256 * 1024 * 1024;

/** What a supervisor's list call needs. */
export type ListTarget =
  | { readonly kind: 'stackd'; readonly url: string }
  | { readonly kind: 'pm2'; readonly home: string }
  | { readonly kind: 'supervisord'; readonly conf: string };

/** One list call, resolved once the answer is read whole. */
export function listCall(target: ListTarget): () => Promise<void> {
  if (target.kind === 'stackd')
    return async () => {
      const response = await fetch(`${target.url}/process/processes`);
      if (!response.ok) throw new Error(`GET /process/processes: ${response.status}`);
      await response.arrayBuffer();
    };
  if (target.kind === 'pm2') {
    const cli = createRequire(import.meta.url).resolve('pm2/bin/pm2');
    return async () => {
      await run(process.execPath, [cli, 'jlist'], {
        env: { ...process.env, PM2_HOME: target.home },
        maxBuffer: BUFFER,
      });
    };
  }
  return async () => {
    // exits 3 while a program is not RUNNING; the list is printed all the same.
    await run('supervisorctl', ['-c', target.conf, 'status'], { maxBuffer: BUFFER }).catch(
      (error: { code?: unknown }) => {
        if (error.code !== 3) throw error;
      },
    );
  };
}

/** `calls` sequential list calls: wall p50/p99 and the supervisor's CPU per call (ms). */
export async function measureList(
  supervisorPid: number,
  call: () => Promise<void>,
  calls: number,
): Promise<{ p50_ms: number; p99_ms: number; supervisor_cpu_ms_per_call: number }> {
  await call(); // the first answer may compile code paths
  const walls: number[] = [];
  const before = cpuMs(supervisorPid);
  for (let index = 0; index < calls; index += 1) {
    const start = performance.now();
    await call();
    walls.push(performance.now() - start);
  }
  return {
    p50_ms: round(percentile(walls, 50), 1),
    p99_ms: round(percentile(walls, 99), 1),
    supervisor_cpu_ms_per_call: round((cpuMs(supervisorPid) - before) / calls, 2),
  };
}
