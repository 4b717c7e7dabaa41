/**
 * What one launch costs the process that forks it, whatever that process is: the parts of the
 * host's CPU per launch that no change inside stackd can remove while Node's own `spawn` makes
 * the children (libuv forks the whole parent and reaps children by asking each one it holds).
 * Measured in this process, with its own CPU from /proc/self/task/<main>/stat (user and system):
 *
 * - spawn: the host CPU of one `spawn()` of `sleep` (detached, no stdio), at this process's size
 *   and grown with live objects to `--rss` MiB (a fork copies the page tables of every resident
 *   page, so a larger parent pays more for the same spawn);
 * - reap: one spawn and exit of `true` while `--held` long-lived children are held, against none
 *   (libuv answers every SIGCHLD with one `waitpid` per child it holds, so each exit costs O(n)
 *   and a restart of n processes O(n²)).
 *
 * `node dist/bench/scale/launch-costs.js [--count 300] [--held 1000] [--rss 200]`; run it with
 * `env -u NODE_EXTRA_CA_CERTS` so that the start-up of each Node process stays out of the way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const TICK_MS = 10;

interface Cpu {
  readonly user: number;
  readonly system: number;
}

/** This process's CPU in ms (all its threads: the fork and the reaping run on the main one). */
function cpu(): Cpu {
  const stat = readFileSync('/proc/self/stat', 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) * TICK_MS, system: Number(fields[12]) * TICK_MS };
}

function rssMib(): number {
  return Math.round(process.memoryUsage().rss / 1048576);
}

/** CPU per call of `step`, run `count` times one after the other. */
async function perCall(count: number, step: () => Promise<void>): Promise<string> {
  const before = cpu();
  for (let index = 0; index < count; index += 1) await step();
  const after = cpu();
  const user = (after.user - before.user) / count;
  const system = (after.system - before.system) / count;
  return `user ${user.toFixed(2)} + system ${system.toFixed(2)} = ${(user + system).toFixed(2)} ms`;
}

const held: ChildProcess[] = [];

function spawnSleep(): Promise<void> {
  const child = spawn('sleep', ['600'], { stdio: 'ignore', detached: true });
  held.push(child);
  return new Promise((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
}

function spawnAndExit(): Promise<void> {
  const child = spawn('true', [], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('exit', () => resolve());
    child.once('error', reject);
  });
}

function release(): void {
  for (const child of held.splice(0)) child.kill('SIGKILL');
}

/** Live objects until this process's RSS reaches `mib` (kept referenced by the caller). */
function grow(mib: number): unknown[] {
  const ballast: unknown[] = [];
  while (process.memoryUsage().rss < mib * 1048576)
    for (let index = 0; index < 10_000; index += 1)
      ballast.push({ index, text: `ballast ${index}`, list: [index] });
  return ballast;
}

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '300' },
    held: { type: 'string', default: '1000' },
    rss: { type: 'string', default: '200' },
  },
});
const count = Number(values.count);
const holding = Number(values.held);
const load = (): string => readFileSync('/proc/loadavg', 'latin1').split(' ').slice(0, 3).join(' ');

try {
  console.log(`load ${load()}`);
  console.log(`spawn at ${rssMib()} MiB: ${await perCall(count, spawnSleep)} per spawn`);
  release();
  console.log(`spawn and exit, none held: ${await perCall(count, spawnAndExit)} each`);
  for (let index = 0; index < holding; index += 1) await spawnSleep();
  console.log(`spawn and exit, ${holding} held: ${await perCall(count, spawnAndExit)} each`);
  release();
  const ballast = grow(Number(values.rss));
  console.log(`spawn at ${rssMib()} MiB: ${await perCall(count, spawnSleep)} per spawn`);
  console.log(`(ballast of ${ballast.length} objects) load ${load()}`);
} finally {
  release();
}
