/**
 * supervisord (Debian's `supervisor` package) as a {@link Subject}: a private supervisord in the
 * foreground (`-n`) on a generated config in a temp dir, its control socket there too, one
 * program per process (autostart off, `startsecs=0`: RUNNING as soon as it is spawned, like
 * stackd's start check of 0 and pm2), output to a log file each as pm2 and stackd keep it.
 * Start and restart go through its XML-RPC interface (as supervisorctl does, without the CLI's
 * start-up in the timing). It runs under `sh -c 'ulimit …'` with raised open-file and process limits, and `minfds`
 * sized for 1,000 programs (three pipes each).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopPids, track, untrack } from '../lib/cleanup.js';
import { waitFor } from '../lib/wait.js';
import type { Step, Subject } from './subject.js';
import * as rpc from './supervisord-rpc.js';

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

/** Start a private supervisord with `count` programs running `command`, not started yet. */
export async function supervisordSubject(
  count: number,
  command: readonly string[],
): Promise<Subject & { readonly conf: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'stackd-bench-supervisord-'));
  const conf = join(dir, 'supervisord.conf');
  const socket = join(dir, 'supervisor.sock');
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
      rpc.runningPids(socket).then(
        () => true,
        () => false,
      ),
    (ready) => ready,
    30_000,
    100,
  );
  let pids: readonly number[] = [];
  const step = async (action: 'start' | 'restart'): Promise<Step> => {
    const before = new Set(pids);
    const start = performance.now();
    // What `supervisorctl restart all` does: stop all (waiting), then start all (waiting).
    if (action === 'restart') await rpc.stopAll(socket);
    await rpc.startAll(socket);
    const now = await waitFor(
      () => rpc.runningPids(socket),
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
