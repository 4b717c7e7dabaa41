/**
 * A host that dies (SIGKILL) or hands over (SIGUSR2) leaves its processes running; the next host
 * adopts them: same pids and start times, restarts kept, grandchildren untouched, a backoff and
 * a wait resumed, and the output printed in the gap in the log once and in order.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { startHost, tempDir, type RunningHostProcess } from '../../helpers/start-host.js';
import {
  fixtureBlock,
  isAlive,
  program,
  readPid,
  serviceStatus,
  startSupervisor,
  SUPERVISOR_PLUGIN,
  type StatusBody,
} from './support.js';
import { readProcess } from '../../../plugins/supervisor/runtime/proc-table.js';

const PRINTER = "let n = 0; setInterval(() => console.log('line ' + n++), 20);";
const RUNNING = ['Base', 'Tree1', 'Tree2', 'Printer1', 'Printer2', 'Printer3', 'Quiet'];

interface Adopted extends StatusBody {
  readonly adopted?: boolean;
  readonly adopted_by_host_start?: number;
}

function stack(dir: string): Record<string, unknown> {
  const block = fixtureBlock;
  return {
    base: block('Base', program('long-running')),
    tree1: block('Tree1', program('spawns-grandchild'), ['--pid-file', join(dir, 'g1')]),
    tree2: block('Tree2', program('spawns-grandchild'), ['--pid-file', join(dir, 'g2')]),
    printer1: { enabled: true, process_name: 'Printer1', command: ['node', '-e', PRINTER] },
    printer2: { enabled: true, process_name: 'Printer2', command: ['node', '-e', PRINTER] },
    printer3: { enabled: true, process_name: 'Printer3', command: ['node', '-e', PRINTER] },
    quiet: block('Quiet', program('long-running')),
    flaky: block('Flaky', program('crashes'), ['--count-file', join(dir, 'flaky')], {
      restart_policy: { base_sec: 8, max_sec: 8 },
    }),
    waiter: block('Waiter', program('long-running'), [], {
      wait_for_dir: [join(dir, 'ready')],
    }),
  };
}

async function snapshot(host: RunningHostProcess): Promise<Map<string, Adopted>> {
  const entries = await Promise.all(
    [...RUNNING, 'Flaky', 'Waiter'].map(
      async (name) => [name, (await serviceStatus(host, name)) as Adopted] as const,
    ),
  );
  return new Map(entries);
}

function printedLines(host: RunningHostProcess, name: string) {
  return request<{ log: string }>(host.url, `/logs?process_name=${name}`).then(({ body }) =>
    body.log
      .split('\n')
      .filter((line) => line.startsWith('line '))
      .map((line) => Number(line.slice(5))),
  );
}

/** Every line once, in order, from 0 on. */
function assertOnceInOrder(t: ExecutionContext, numbers: number[], what: string): void {
  t.true(
    numbers.every((value, index) => value === index),
    `${what}: ${numbers.length} lines once and in order`,
  );
}

async function checkAdopted(
  t: ExecutionContext,
  before: Map<string, Adopted>,
  host: RunningHostProcess,
  gapLine: number,
): Promise<void> {
  const after = await eventually(
    async () => {
      const states = await snapshot(host);
      return RUNNING.every((name) => states.get(name)?.adopted === true) ? states : undefined;
    },
    { what: 'every running process adopted', timeoutMs: 20_000 },
  );
  for (const name of RUNNING) {
    const was = before.get(name) as Adopted;
    const now = after.get(name) as Adopted;
    t.is(now.status, 'running', name);
    t.is(now.pid, was.pid, `${name} keeps its pid`);
    t.is(now.restarts, was.restarts, `${name} keeps its restarts`);
    t.true((now.uptime_s ?? 0) >= (was.uptime_s ?? Infinity), `${name} uptime continues`);
    t.true(typeof now.adopted_by_host_start === 'number');
  }
  const health = await request<{ status: string; notes?: string }>(host.url, '/health');
  t.regex(health.body.notes ?? health.body.status, /adopted/);
  const lines = await eventually(
    async () => {
      const found = await printedLines(host, 'Printer1');
      return (found.at(-1) ?? 0) > gapLine ? found : undefined;
    },
    { what: 'output of the gap in the log' },
  );
  assertOnceInOrder(t, lines, 'Printer1');
}

test('SIGKILL, then SIGUSR2: the next hosts adopt every running process', async (t) => {
  const dir = tempDir('stackd-adopt-');
  const first = await startSupervisor(stack(dir), { supervisor: { start_check_ms: 300 } });
  const hosts: RunningHostProcess[] = [first];
  t.teardown(async () => {
    for (const host of hosts) if (host.child.exitCode === null) await host.stop();
  });
  const before = await eventually(
    async () => {
      const states = await snapshot(first);
      const ready =
        RUNNING.every((name) => states.get(name)?.status === 'running') &&
        states.get('Flaky')?.status === 'backoff' &&
        /waiting for/.test(states.get('Waiter')?.reason ?? '');
      return ready ? states : undefined;
    },
    { what: 'the stack running, Flaky backing off, Waiter waiting', timeoutMs: 20_000 },
  );
  const grandchildren = [await readPid(join(dir, 'g1')), await readPid(join(dir, 'g2'))];
  const ticks = RUNNING.map((name) => readProcess(before.get(name)?.pid as number)?.startTicks);
  const flakyRuns = readFileSync(join(dir, 'flaky'), 'utf8');

  const lastBefore = (await printedLines(first, 'Printer1')).at(-1) ?? 0;
  await first.stop('SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // they keep printing meanwhile
  // A line every 20 ms: at least this many were printed while no host ran.
  const gapLine = lastBefore + 40;
  const options = { configPath: first.configPath as string, dataDir: first.dataDir };
  const second = await startHost({ ...options, plugins: [SUPERVISOR_PLUGIN] });
  hosts.push(second);
  await checkAdopted(t, before, second, gapLine);
  t.deepEqual(
    RUNNING.map((name) => readProcess(before.get(name)?.pid as number)?.startTicks),
    ticks,
    'the same processes (start times)',
  );
  for (const pid of grandchildren) t.true(isAlive(pid as number), 'grandchild untouched');
  const flaky = await serviceStatus(second, 'Flaky');
  t.is(flaky.status, 'backoff', 'the backoff resumes');
  t.is(flaky.restarts, before.get('Flaky')?.restarts ?? -1, 'its restarts kept');
  t.is(readFileSync(join(dir, 'flaky'), 'utf8'), flakyRuns, 'not restarted early');
  await eventually(
    async () => /waiting for/.test((await serviceStatus(second, 'Waiter')).reason ?? ''),
    {
      what: 'Waiter waiting again',
    },
  );
  mkdirSync(join(dir, 'ready'));
  await eventually(async () => (await serviceStatus(second, 'Waiter')).status === 'running', {
    what: 'the wait to end',
    timeoutMs: 20_000,
  });
  await eventually(() => readFileSync(join(dir, 'flaky'), 'utf8') !== flakyRuns, {
    what: 'the resumed backoff to restart Flaky',
    timeoutMs: 20_000,
  });

  // The planned handover: exit 0, nothing stopped, the next host adopts.
  const handedOver = await snapshot(second);
  const lastHandedOver = (await printedLines(second, 'Printer1')).at(-1) ?? 0;
  t.is(await second.stop('SIGUSR2'), 0);
  for (const name of RUNNING) t.true(isAlive(handedOver.get(name)?.pid as number), name);
  const third = await startHost({ ...options, plugins: [SUPERVISOR_PLUGIN] });
  hosts.push(third);
  await checkAdopted(t, handedOver, third, lastHandedOver + 40);

  // Plain SIGTERM keeps its meaning: everything stops.
  t.is(await third.stop(), 0);
  for (const name of RUNNING) t.false(isAlive(handedOver.get(name)?.pid as number), name);
});
