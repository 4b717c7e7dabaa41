/**
 * A host that dies (SIGKILL) or hands over (SIGUSR2) leaves its 50 processes running; the next
 * host adopts them: same pids and start times, restarts kept, grandchildren untouched, a backoff
 * and a wait resumed, the output printed in the gap in the log once and in order, and /ws/logs
 * from its first line on once and in order. An adopted process that then dies is reported with an unknown exit status, not 0.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { openSocket, request, type TestSocket } from '../../helpers/http.js';
import { freePort } from '../../helpers/ports.js';
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
/** A host's boot on a loaded 2-core machine, 50 processes adopted meanwhile, took over 20 s. */
const BOOT_MS = 90_000;
/** Quiet processes that make up the 50: they only have to be adopted like the rest. */
const QUIET = Array.from({ length: 41 }, (_, index) => `Quiet${index + 2}`);
const RUNNING = ['Base', 'Tree1', 'Tree2', 'Printer1', 'Printer2', 'Printer3', 'Quiet', ...QUIET];

interface Adopted extends Omit<StatusBody, 'uptime_s'> {
  readonly uptime_s?: number | null;
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
      // Longer than a host's boot with 50 processes on a loaded machine: still due when adopted.
      restart_policy: { base_sec: 90, max_sec: 90 },
    }),
    waiter: block('Waiter', program('long-running'), [], {
      wait_for_dir: [join(dir, 'ready')],
    }),
    ...Object.fromEntries(QUIET.map((name) => [name.toLowerCase(), quiet(name)])),
  };
}

function quiet(name: string): Record<string, unknown> {
  return fixtureBlock(name, program('long-running'));
}

/** The service-status of every process (it says `adopted`). */
async function snapshot(host: RunningHostProcess): Promise<Map<string, Adopted>> {
  const entries = await Promise.all(
    [...RUNNING, 'Flaky', 'Waiter'].map(
      async (name) => [name, (await serviceStatus(host, name)) as Adopted] as const,
    ),
  );
  return new Map(entries);
}

/** Lines of a printer in /ws/logs JSON frames. */
function socketLines(socket: TestSocket, name: string): number[] {
  return socket.messages
    .map((text) => JSON.parse(text) as { process_name?: string; lines?: string[] })
    .filter((frame) => frame.process_name === name)
    .flatMap((frame) => frame.lines ?? [])
    .filter((line) => line.startsWith('line '))
    .map((line) => Number(line.slice(5)));
}

/** A /ws/logs client on `port` from the moment the host listens there (retried until then). */
async function earliestLogSocket(port: number, stop: AbortSignal): Promise<TestSocket> {
  let listening = false;
  for (;;) {
    const socket = await openSocket(
      `http://127.0.0.1:${port}`,
      '/ws/logs?process_name=Printer1&format=json',
    );
    if (socket.socket.readyState === socket.socket.OPEN) return socket;
    // Once the host listens, one more try (this one may have started just before).
    if (stop.aborted && listening) throw new Error('no /ws/logs on the listening host');
    listening = stop.aborted;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
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
    { what: 'every running process adopted', timeoutMs: 60_000 },
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

/**
 * Flaky's backoff (90 s) must still be running when the next host is asked about it: the kill,
 * the gap and a boot adopting 50 processes take well under a minute even beside the full suite,
 * but Flaky may have entered its backoff any time before the stack was seen running.
 */
const BACKOFF_LEFT_MS = 60_000;

/** How long the pending restart the host recorded for `name` still waits (0 without one). */
function backoffLeftMs(dataDir: string, name: string): number {
  try {
    const file = join(
      dataDir,
      'supervisor',
      'pending-restarts',
      `${encodeURIComponent(name)}.json`,
    );
    const { due_at: dueAt } = JSON.parse(readFileSync(file, 'utf8')) as { due_at: number };
    return dueAt - Date.now();
  } catch {
    return 0;
  }
}

test('SIGKILL, then SIGUSR2: the next hosts adopt all 50 processes', async (t) => {
  const dir = tempDir('stackd-adopt-');
  t.timeout(12 * 60_000);
  const first = await startSupervisor(stack(dir), {
    supervisor: { start_check_ms: 300 },
    host: { bootTimeoutMs: BOOT_MS },
  });
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
        backoffLeftMs(first.dataDir, 'Flaky') >= BACKOFF_LEFT_MS &&
        /waiting for/.test(states.get('Waiter')?.reason ?? '');
      return ready ? states : undefined;
    },
    {
      what: 'the stack running, Flaky backing off with a minute left, Waiter waiting',
      timeoutMs: 240_000,
    },
  );
  // Written by the fixture once it forked: on a loaded machine later than its start check.
  const grandchildren = await Promise.all(
    ['g1', 'g2'].map((file) =>
      eventually(() => readPid(join(dir, file)), { what: `the pid in ${file}`, timeoutMs: 30_000 }),
    ),
  );
  for (const pid of grandchildren) t.true(isAlive(pid), 'grandchild running before the kill');
  const ticks = RUNNING.map((name) => readProcess(before.get(name)?.pid as number)?.startTicks);
  const flakyRuns = readFileSync(join(dir, 'flaky'), 'utf8');

  const lastBefore = (await printedLines(first, 'Printer1')).at(-1) ?? 0;
  await first.stop('SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // they keep printing meanwhile
  // A line every 20 ms: at least this many were printed while no host ran.
  const gapLine = lastBefore + 40;
  const options = {
    configPath: first.configPath as string,
    dataDir: first.dataDir,
    bootTimeoutMs: BOOT_MS,
  };
  // A known port, so a /ws/logs client is there before the adoption reads the gap's output.
  const port = await freePort();
  const booting = new AbortController();
  const early = earliestLogSocket(port, booting.signal);
  early.catch(() => undefined); // awaited below once the host listens
  const second = await startHost({
    ...options,
    plugins: [SUPERVISOR_PLUGIN],
    extraArgs: ['--port', String(port)],
  }).finally(() => booting.abort());
  hosts.push(second);
  const socket = await early;
  t.teardown(() => socket.close());
  await checkAdopted(t, before, second, gapLine);
  const live = await eventually(
    () => {
      const found = socketLines(socket, 'Printer1');
      return (found.at(-1) ?? 0) > gapLine ? found : undefined;
    },
    { what: 'the output of the gap on /ws/logs' },
  );
  // The stream has no replay: a client that connects as the host starts listening may miss the
  // first of the gap's lines (they are in GET /logs, checked above); what it gets is whole.
  t.true(
    live.every((value, index) => index === 0 || value === (live[index - 1] as number) + 1),
    `/ws/logs: ${live.length} lines from ${live[0]} on (${lastBefore} before the kill), once and in order`,
  );
  t.deepEqual(
    RUNNING.map((name) => readProcess(before.get(name)?.pid as number)?.startTicks),
    ticks,
    'the same processes (start times)',
  );
  for (const pid of grandchildren) t.true(isAlive(pid), 'grandchild untouched');
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
    timeoutMs: 150_000,
  });

  // An adopted process that dies: its parent is init, so its exit status is unknown, not 0.
  const victim = before.get('Quiet41')?.pid as number;
  process.kill(victim, 'SIGKILL');
  const died = await eventually(
    async () => {
      const state = await serviceStatus(second, 'Quiet41');
      return /exit status unknown/.test(state.reason ?? '') ? state : undefined;
    },
    { what: 'the death of an adopted process reported', timeoutMs: 20_000 },
  );
  t.is(died.exit_code, undefined, 'no made-up exit code');
  await eventually(async () => (await serviceStatus(second, 'Quiet41')).status === 'running', {
    what: 'Quiet41 restarted',
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
