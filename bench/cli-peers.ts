/**
 * The peers of `stackd status` in the CLI benchmark, each supervising the same N idle programs:
 * pm2 (its own daemon, PM2_HOME in a temp dir) and Debian's supervisord (a temp config, a unix
 * socket in a temp dir). Each returns the command line that lists its processes, and a stop.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR } from './lib/children.js';
import { IDLE_COMMAND } from './lib/host.js';
import { waitFor } from './lib/wait.js';

/** A peer that supervises the programs, and its list command. */
export interface Peer {
  readonly label: string;
  readonly command: readonly string[];
  readonly env: Record<string, string>;
  stop(): void;
}

const PM2_BIN = join(BENCH_DIR, '..', '..', 'node_modules', 'pm2', 'bin', 'pm2');

/** pm2 with `count` idle apps online. */
export async function startPm2(count: number): Promise<Peer> {
  const home = mkdtempSync(join(tmpdir(), 'stackd-bench-cli-pm2-'));
  const env = { PM2_HOME: home };
  const [program, ...args] = IDLE_COMMAND;
  const ecosystem = join(home, 'ecosystem.json');
  writeFileSync(
    ecosystem,
    JSON.stringify({
      apps: Array.from({ length: count }, (_, index) => ({
        name: `bench-${index}`,
        script: program,
        args,
        interpreter: 'none',
      })),
    }),
  );
  const run = (...pm2Args: string[]): string =>
    execFileSync(process.execPath, [PM2_BIN, ...pm2Args], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
  run('start', ecosystem);
  await waitFor(
    () => run('jlist').match(/"status":"online"/g)?.length ?? 0,
    (online) => online >= count,
    120_000,
    200,
  );
  return {
    label: 'pm2 ls',
    command: [process.execPath, PM2_BIN, 'ls'],
    env,
    stop: () => {
      run('kill');
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** supervisord with `count` idle programs RUNNING; undefined when it is not installed. */
export async function startSupervisord(count: number): Promise<Peer | undefined> {
  if (spawnSync('supervisord', ['--version']).status !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'stackd-bench-cli-sv-'));
  const conf = join(dir, 'supervisord.conf');
  const programs = Array.from(
    { length: count },
    (_, index) =>
      `[program:bench_${index}]\ncommand=${IDLE_COMMAND.map((part) => (part.includes(' ') ? `"${part}"` : part)).join(' ')}\nautostart=true\nstartsecs=1\n`,
  );
  writeFileSync(
    conf,
    [
      `[unix_http_server]\nfile=${dir}/supervisor.sock\n`,
      `[supervisord]\nlogfile=${dir}/supervisord.log\npidfile=${dir}/supervisord.pid\nchildlogdir=${dir}\n`,
      '[rpcinterface:supervisor]\nsupervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface\n',
      `[supervisorctl]\nserverurl=unix://${dir}/supervisor.sock\n`,
      ...programs,
    ].join('\n'),
  );
  execFileSync('supervisord', ['-c', conf]);
  const status = (): string =>
    spawnSync('supervisorctl', ['-c', conf, 'status'], { encoding: 'utf8' }).stdout;
  await waitFor(
    () => status().match(/RUNNING/g)?.length ?? 0,
    (running) => running >= count,
    120_000,
    200,
  );
  return {
    label: 'supervisorctl status',
    command: ['supervisorctl', '-c', conf, 'status'],
    env: {},
    stop: () => {
      spawnSync('supervisorctl', ['-c', conf, 'shutdown']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
