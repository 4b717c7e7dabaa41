import test from 'ava';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../../../helpers/eventually.js';
import { isAlive, program, readPid } from '../support/processes.js';
import { makeRunner } from '../support/runner.js';

test('start runs the command in its own group; stop ends it with SIGTERM', async (t) => {
  const { runner, states, output } = makeRunner({
    command: ['node', program('long-running'), '--print-env', 'GREETING'],
    env: { GREETING: 'hi {port}' },
    port: 1234,
  });
  const outcome = await runner.start();
  t.is(outcome.failure, null);
  t.is(outcome.state.status, 'running');
  const pid = outcome.state.pid ?? 0;
  t.true(isAlive(pid));
  t.deepEqual(
    states.map((state) => state.status).filter((status, index, all) => status !== all[index - 1]),
    ['starting', 'running'],
  );
  t.is((await runner.start()).state.pid, pid, 'starting a running process is a no-op');
  await eventually(() => output().includes('env GREETING=hi 1234'), { what: 'env line' });
  const stopped = await runner.stop();
  t.like(stopped, { status: 'stopped', pid: null, exit_code: 0, reason: null });
  t.false(isAlive(pid));
  t.regex(output(), /long-running got SIGTERM/);
});

test('a process that exits at once fails to start, naming its exit code and last error line', async (t) => {
  const { runner } = makeRunner(
    {
      command: ['node', program('crashes'), '--code', '3', '--message', 'fatal: database missing'],
      auto_restart: false,
    },
    { startCheckMs: 5000 },
  );
  const outcome = await runner.start();
  t.deepEqual(outcome.failure, {
    kind: 'exited',
    message: 'P failed to stay running (exit code 3): fatal: database missing',
  });
  t.like(outcome.state, { status: 'crashed', exit_code: 3, pid: null });
});

test('a child ignoring SIGTERM is killed after the stop timeout', async (t) => {
  const { runner, output } = makeRunner({
    command: ['node', program('ignores-sigterm')],
    stop_timeout: 0.5,
  });
  const { state } = await runner.start();
  await eventually(() => output().includes('ready'), { what: 'ready line' });
  const began = Date.now();
  const stopped = await runner.stop();
  t.true(Date.now() - began >= 450, 'it waited the stop timeout first');
  t.like(stopped, { status: 'stopped', exit_code: 137 });
  t.regex(stopped.reason ?? '', /killed with SIGKILL after the 0.5 s stop timeout/);
  t.false(isAlive(state.pid ?? 0));
  t.regex(output(), /SIGTERM ignored/);
});

test('stop leaves no grandchild behind', async (t) => {
  const { runner, dataDir } = makeRunner({
    command: ['node', program('spawns-grandchild'), '--pid-file', 'grandchild.pid'],
    stop_timeout: 0.5,
  });
  await runner.start();
  const grandchild = await eventually(() => readPid(join(dataDir, 'grandchild.pid')), {
    what: 'grandchild pid',
  });
  t.true(isAlive(grandchild));
  await runner.stop();
  t.false(isAlive(grandchild));
});

test('a placeholder naming a non-scalar field fails the start with a clear reason', async (t) => {
  const { runner } = makeRunner({ command: ['node', '--port={prot}'], prot: { a: 1 } });
  const outcome = await runner.start();
  t.is(outcome.failure?.kind, 'config');
  t.is(
    outcome.state.reason,
    "invalid configuration: placeholder {prot} in command[1]: field 'prot' is not a string, number or boolean",
  );
  t.is(outcome.state.status, 'crashed');
});

test('a missing program fails the start naming it', async (t) => {
  const { runner } = makeRunner({ command: ['/nonexistent/program-xyz'] });
  const outcome = await runner.start();
  t.is(outcome.failure?.kind, 'launch');
  t.regex(
    outcome.failure?.message ?? '',
    /cannot run \/nonexistent\/program-xyz: program not found/,
  );
});

test('a start waits for its directory, visibly, and a stop cancels the wait', async (t) => {
  const { runner, states, dataDir } = makeRunner({
    command: ['node', program('long-running')],
    wait_for_dir: 'ready-dir',
  });
  const pending = runner.start();
  await eventually(() => runner.state().reason?.startsWith('waiting for directory'), {
    what: 'waiting reason',
  });
  t.is(runner.state().status, 'starting');
  t.is(runner.state().reason, `waiting for directory ${join(dataDir, 'ready-dir')}`);
  mkdirSync(join(dataDir, 'ready-dir'));
  t.is((await pending).state.status, 'running');
  await runner.stop();

  const { runner: second } = makeRunner({
    command: ['node', program('long-running')],
    wait_for_dir: '/nonexistent/never',
  });
  const waiting = second.start();
  await eventually(() => second.state().reason?.startsWith('waiting for'), { what: 'waiting' });
  const stopped = await second.stop();
  t.is(stopped.status, 'stopped');
  t.is((await waiting).failure?.kind, 'cancelled');
  t.true(states.length > 0);
});

test('a wait that outlives its budget fails the start', async (t) => {
  const { runner } = makeRunner({
    command: ['node', program('long-running')],
    wait_for_dir: '/nonexistent/never',
    wait_timeout: 0.3,
  });
  const outcome = await runner.start();
  t.is(outcome.failure?.kind, 'wait');
  t.is(
    outcome.state.reason,
    'timed out after 0.3 s waiting for directory /nonexistent/never (/nonexistent/never does not exist)',
  );
});

test('crash → backoff → restart, until max_restarts within the window gives up', async (t) => {
  const { runner, states, dataDir } = makeRunner(
    {
      // Up for 1 s: the 100 ms start check passes even when a loaded machine delays its timer.
      command: ['node', program('crashes'), '--after', '1000', '--count-file', 'runs.txt'],
      restart_policy: { base_sec: 0.1, factor: 2, max_restarts: 2, window_seconds: 60 },
    },
    { startCheckMs: 100 },
  );
  t.is((await runner.start()).state.status, 'running');
  await eventually(() => runner.state().reason?.includes('gave up after 2 restarts'), {
    what: 'giving up',
    timeoutMs: 15_000,
  });
  const final = runner.state();
  t.like(final, { status: 'crashed', exit_code: 1, restarts: 2, pid: null });
  const statuses = states.map((state) => state.status);
  t.deepEqual(
    statuses.filter((status, index) => status !== statuses[index - 1]),
    [
      'starting',
      'running',
      'crashed',
      'backoff',
      'starting',
      'running',
      'crashed',
      'backoff',
      'starting',
      'running',
      'crashed',
    ],
  );
  t.regex(
    states.find((state) => state.status === 'backoff')?.reason ?? '',
    /P exited unexpectedly \(exit code 1\); restart 1 in 0.1 s/,
  );
  t.is(readFileSync(join(dataDir, 'runs.txt'), 'utf8').trim().split('\n').length, 3);
});

test('a manual stop during backoff cancels the restart', async (t) => {
  const block = (file: string) => ({
    // Up for 1 s, so the 50 ms start check passes even when a loaded machine runs it late.
    command: ['node', program('crashes'), '--after', '1000', '--count-file', file],
    restart_policy: { base_sec: 0.3 },
  });
  const stoppedOne = makeRunner(block('runs.txt'), { startCheckMs: 50 });
  const sibling = makeRunner(block('runs.txt'), { startCheckMs: 50 });
  await Promise.all([stoppedOne.runner.start(), sibling.runner.start()]);
  await eventually(() => stoppedOne.runner.state().status === 'backoff', { what: 'backoff' });
  t.is((await stoppedOne.runner.stop()).status, 'stopped');
  // The sibling's restart timer had the same delay: once it restarted, the stopped one would have.
  await eventually(() => sibling.runner.state().restarts >= 1, { what: 'sibling restart' });
  t.is(stoppedOne.runner.state().status, 'stopped');
  t.is(readFileSync(join(stoppedOne.dataDir, 'runs.txt'), 'utf8').trim().split('\n').length, 1);
  await sibling.runner.stop();
});

test('an unhealthy process (its port does not answer) is restarted', async (t) => {
  const { runner } = makeRunner(
    {
      command: ['node', program('long-running')],
      health_check: { interval_sec: 0.1, unhealthy_threshold: 2, ports: [1] },
      restart_policy: { base_sec: 0.05 },
    },
    { startCheckMs: 50 },
  );
  const first = (await runner.start()).state.pid ?? 0;
  await eventually(() => runner.state().restarts >= 1 && runner.state().status === 'running', {
    what: 'health restart',
  });
  t.not(runner.state().pid, first);
  t.false(isAlive(first));
  await runner.stop();
});

test('restart gives a new pid; the old process is gone', async (t) => {
  const { runner } = makeRunner({ command: ['node', program('long-running')] });
  const first = (await runner.start()).state.pid ?? 0;
  const outcome = await runner.restart();
  t.is(outcome.state.status, 'running');
  t.not(outcome.state.pid, first);
  t.is(outcome.state.restarts, 1);
  t.false(isAlive(first));
  await runner.stop();
});
