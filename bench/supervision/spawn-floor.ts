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
if (program === undefined) throw new Error('usage: spawn-floor.js COUNT COMMAND_JSON [RSS_MIB]');
let children: ChildProcess[] = [];

/**
 * Live JS objects held until the loop's RSS reaches `rssMib` (the optional third argument): the
 * same loop in a process as large as a supervisor under test. libuv forks the parent for every
 * spawn, and a fork copies the page tables of all the parent's memory, so a larger parent pays
 * more per spawn for the same work.
 */
function growTo(rssMib: number): unknown[] {
  const ballast: unknown[] = [];
  while (process.memoryUsage().rss < rssMib * 1024 * 1024)
    for (let index = 0; index < 10_000; index += 1)
      ballast.push({ index, text: `ballast ${index}`, list: [index] });
  return ballast;
}
/** Exported so it stays referenced (and resident) for the process's life. */
export const ballast = growTo(Number(process.argv[4] ?? 0));

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
