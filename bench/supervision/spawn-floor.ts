/**
 * The floor of the supervision benchmark: a bare child_process.spawn loop in its own process.
 * It starts N copies of the idle program with piped (and drained) output, as a supervisor that
 * keeps the output would; "running" means the OS started it (the `spawn` event). Restart: SIGTERM,
 * wait for the exit, spawn again — all processes at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { serveAgent } from './agent-protocol.js';

const count = Number(process.argv[2] ?? 50);
const command = JSON.parse(process.argv[3] ?? '[]') as string[];
const [program, ...args] = command;
if (program === undefined) throw new Error('usage: spawn-floor.js COUNT COMMAND_JSON');
let children: ChildProcess[] = [];

function launch(): Promise<ChildProcess> {
  const child = spawn(program as string, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.resume();
  child.stderr?.resume();
  return new Promise((resolve, reject) => {
    child.once('spawn', () => resolve(child));
    child.once('error', reject);
  });
}

function stopOne(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const pids = (): number[] =>
  children.flatMap((child) => (child.pid === undefined ? [] : [child.pid]));

serveAgent(process.pid, async ({ cmd }) => {
  const start = performance.now();
  if (cmd === 'start') {
    children = await Promise.all(Array.from({ length: count }, launch));
  } else if (cmd === 'restart') {
    children = await Promise.all(children.map(async (child) => (await stopOne(child), launch())));
  } else {
    await Promise.all(children.map(stopOne));
    children = [];
  }
  return { ok: true, ms: performance.now() - start, pids: pids(), supervisor_pid: process.pid };
});
