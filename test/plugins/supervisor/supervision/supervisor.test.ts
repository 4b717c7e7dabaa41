import test from 'ava';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type { JsonRecord, ProcessState } from '../../../../sdk/index.js';
import { SupervisorConfig } from '../../../../plugins/supervisor/config.js';
import { LogLineBus } from '../../../../plugins/supervisor/logs/log-line-bus.js';
import { Supervisor } from '../../../../plugins/supervisor/supervision/supervisor.js';
import { LaunchBook } from '../../../../plugins/supervisor/runtime/launch-book.js';
import { FolderStorage } from '../../../../core/storage/plugin-storage.js';
import { eventually } from '../../../helpers/eventually.js';
import { isAlive, program, readPid } from '../support/processes.js';
import { memoryLogger } from '../support/runner.js';

function makeSupervisor(document: JsonRecord) {
  const dataDir = mkdtempSync(join(tmpdir(), 'stackd-supervisor-'));
  const changes: ProcessState[] = [];
  const bus = new LogLineBus();
  const lines: string[] = [];
  bus.subscribe((batch) =>
    lines.push(...batch.lines.map((line) => `${batch.process_name}: ${line}`)),
  );
  const supervisor = new Supervisor({
    dataDir,
    config: { ...(Value.Default(SupervisorConfig, {}) as SupervisorConfig), start_check_ms: 200 },
    readDocument: () => document,
    logger: memoryLogger(),
    bus,
    onChange: (state) => changes.push(state),
    launches: new LaunchBook(new FolderStorage(dataDir, 'supervisor'), memoryLogger()),
  });
  return { supervisor, dataDir, changes, lines };
}

const document: JsonRecord = {
  stackd: { api_service: { process_name: 'stackd API' } },
  parent: {
    enabled: true,
    process_name: 'Parent',
    command: ['node', program('spawns-grandchild'), '--pid-file', 'grandchild.pid'],
  },
  chatty: {
    enabled: true,
    process_name: 'Chatty',
    command: ['node', program('long-running'), '--stderr', 'password=hunter2 oops'],
  },
  idle: { enabled: false, process_name: 'Idle', command: ['node', program('long-running')] },
};

test('boot starts the enabled processes; pidTree, states and logs follow them; stopAll ends all', async (t) => {
  const { supervisor, dataDir, changes, lines } = makeSupervisor(document);
  await supervisor.startEnabled(undefined, new AbortController().signal);
  const states = supervisor.states();
  t.deepEqual(
    states.map((state) => [state.process_name, state.status]),
    [
      ['stackd API', 'running'],
      ['Parent', 'running'],
      ['Chatty', 'running'],
      ['Idle', 'stopped'],
    ],
  );
  t.is(supervisor.state('stackd API')?.pid, process.pid);
  t.deepEqual(await supervisor.pidTree('stackd API'), [process.pid]);
  const grandchild = await eventually(() => readPid(join(dataDir, 'grandchild.pid')));
  const parentPid = supervisor.state('Parent')?.pid ?? 0;
  t.deepEqual(
    await supervisor.pidTree('Parent'),
    [parentPid, grandchild].sort((a, b) => a - b),
  );
  t.deepEqual(await supervisor.pidTree('Idle'), []);
  // The batch for metrics: the same trees, kept until a state changes.
  const trees = await supervisor.pidTrees();
  t.deepEqual(trees.get('stackd API'), [process.pid]);
  t.deepEqual(
    trees.get('Parent'),
    [parentPid, grandchild].sort((a, b) => a - b),
  );
  t.false(trees.has('Idle'));
  t.is(await supervisor.pidTrees(), trees);
  const chattyBefore = supervisor.state('Chatty')?.pid ?? 0;
  await supervisor.restart('Chatty');
  const chattyAfter = supervisor.state('Chatty')?.pid ?? 0;
  t.not(chattyAfter, chattyBefore);
  const afterRestart = await supervisor.pidTrees();
  t.not(afterRestart, trees);
  t.deepEqual(afterRestart.get('Chatty'), [chattyAfter]);
  t.is(supervisor.logFile('Chatty'), join(dataDir, 'logs', 'chatty.log'));
  t.is(supervisor.logFile('stackd API'), null);
  t.like(supervisor.find('Idle'), { config_key: 'idle', enabled: false, instance_name: null });
  t.true(changes.some((state) => state.process_name === 'Chatty' && state.status === 'running'));

  await eventually(() => lines.some((line) => line.startsWith('Chatty: password=')), {
    what: 'stderr line',
  });
  await supervisor.stopAll(5000);
  t.false(isAlive(parentPid));
  t.false(isAlive(grandchild));
  t.true(
    supervisor
      .states()
      .slice(1)
      .every((state) => state.status === 'stopped'),
  );
  const log = readFileSync(join(dataDir, 'logs', 'chatty.log'), 'utf8');
  t.regex(log, /long-running started/);
  t.false(log.includes('hunter2'), 'the log writer redacts');
});

test('the contract methods reject unknown names', async (t) => {
  const { supervisor } = makeSupervisor(document);
  await t.throwsAsync(supervisor.start('Nobody'), { message: "Process 'Nobody' not found" });
  await t.throwsAsync(supervisor.stop('Nobody'), { message: "Process 'Nobody' not found" });
  await t.throwsAsync(supervisor.stop('stackd API'), { message: /is this API itself/ });
  t.is(supervisor.state('Nobody'), undefined);
  t.is(supervisor.find('Nobody'), undefined);
});

test('a state view is rebuilt once it is older than its age limit', async (t) => {
  const { supervisor } = makeSupervisor(document);
  const forever = supervisor.stateView(() => ({}));
  const aging = supervisor.stateView(() => ({}), 50);
  const first = { forever: forever(), aging: aging() };
  t.is(aging(), first.aging);
  await new Promise((resolve) => setTimeout(resolve, 80));
  t.not(aging(), first.aging);
  t.is(forever(), first.forever);
});

test('stopping many processes at once shares one budget signal without a listener warning', async (t) => {
  const many: JsonRecord = { stackd: { api_service: { process_name: 'stackd API' } } };
  for (let index = 0; index < 12; index += 1)
    many[`sleeper_${index}`] = {
      enabled: true,
      process_name: `Sleeper ${index}`,
      command: ['node', program('ignores-sigterm')],
      stop_timeout: 30, // every grace is still running when the budget below ends it
    };
  const { supervisor } = makeSupervisor(many);
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => {
    warnings.push(`${warning.name}: ${warning.message}`);
  };
  process.on('warning', onWarning);
  t.teardown(() => process.off('warning', onWarning));
  await supervisor.startEnabled(undefined, new AbortController().signal);
  t.is(supervisor.states().filter((state) => state.status === 'running').length, 13);
  await supervisor.stopAll(1500);
  t.true(
    supervisor
      .states()
      .slice(1)
      .every((state) => state.status === 'stopped'),
  );
  // Node reports the warning on the next tick; give it one.
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(warnings, []);
});
