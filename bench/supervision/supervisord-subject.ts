/**
 * supervisord (Debian's `supervisor` package) as a {@link Subject}: a private supervisord in the
 * foreground (`-n`) on a generated config in a temp dir, its control socket there too, one
 * program per process (autostart off, `startsecs=0`: RUNNING as soon as it is spawned, like
 * stackd's start check of 0 and pm2), output to a log file each as pm2 and stackd keep it.
 * It runs under `sh -c 'ulimit …'` with raised open-file and process limits, and `minfds`
 * sized for 1,000 programs (three pipes each).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stopPids, track, untrack } from '../lib/cleanup.js';
import { waitFor } from '../lib/wait.js';
import type { Step, Subject } from './subject.js';

const run = promisify(execFile);

function configText(dir: string, count: number, command: readonly string[]): string {
  const lines = [
    '[unix_http_server]',
    `file=${join(dir, 'supervisor.sock')}`,
    '[supervisord]',
    'nodaemon=true',
    `logfile=${join(dir, 'supervisord.log')}`,
    `pidfile=${join(dir, 'supervisord.pid')}`,
    `childlogdir=${dir}`,
    `minfds=${Math.max(1024, count * 4 + 256)}`,
    `minprocs=${Math.max(200, count + 100)}`,
    '[rpcinterface:supervisor]',
    'supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface',
    '[supervisorctl]',
    `serverurl=unix://${join(dir, 'supervisor.sock')}`,
  ];
  for (let index = 0; index < count; index += 1)
    lines.push(
      `[program:bench_${index}]`,
      `command=${command.join(' ')}`,
      'autostart=false',
      'autorestart=true',
      'startsecs=0',
      'redirect_stderr=true',
      `stdout_logfile=${join(dir, `bench_${index}.log`)}`,
    );
  return `${lines.join('\n')}\n`;
}

/** `supervisorctl status` parsed: the PIDs of the RUNNING programs. */
async function runningPids(conf: string): Promise<number[]> {
  // status exits 3 while some program is not RUNNING; its output is still the list.
  const output = await run('supervisorctl', ['-c', conf, 'status'], {
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return [...output.stdout.matchAll(/\sRUNNING\s+pid (\d+),/g)].map((match) => Number(match[1]));
}

/** Start a private supervisord with `count` programs running `command`, not started yet. */
export async function supervisordSubject(
  count: number,
  command: readonly string[],
): Promise<Subject & { readonly conf: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'stackd-bench-supervisord-'));
  const conf = join(dir, 'supervisord.conf');
  writeFileSync(conf, configText(dir, count, command));
  const limits = `ulimit -n ${Math.max(4096, count * 4 + 256)} 2>/dev/null; ulimit -u unlimited 2>/dev/null;`;
  const child = spawn('sh', ['-c', `${limits} exec supervisord -n -c "$0"`, conf], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pid = child.pid ?? Number.NaN;
  track(pid, 'supervisord');
  // Ready once the control socket answers.
  await waitFor(
    () =>
      run('supervisorctl', ['-c', conf, 'pid']).then(
        (out) => out.stdout.trim(),
        () => '',
      ),
    (answer) => answer === String(pid),
    30_000,
    100,
  );
  let pids: readonly number[] = [];
  const step = async (action: 'start' | 'restart'): Promise<Step> => {
    const before = new Set(pids);
    const start = performance.now();
    await run('supervisorctl', ['-c', conf, action, 'all'], { maxBuffer: 64 * 1024 * 1024 });
    const now = await waitFor(
      () => runningPids(conf),
      (list) => list.length === count && list.every((entry) => !before.has(entry)),
      120_000,
      20,
    );
    const ms = performance.now() - start;
    for (const old of pids) if (!now.includes(old)) untrack(old);
    for (const entry of now) track(entry, 'supervisord process');
    pids = now;
    return { ms, pids: now };
  };
  return {
    label: 'supervisord',
    supervisorPid: pid,
    conf,
    startAll: () => step('start'),
    restartAll: () => step('restart'),
    close: async () => {
      try {
        // supervisord stops its programs on SIGTERM.
        await stopPids([pid], 60_000);
      } finally {
        await stopPids(pids);
        for (const entry of [...pids, pid]) untrack(entry);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
