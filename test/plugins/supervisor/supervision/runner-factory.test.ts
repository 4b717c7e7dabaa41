/** A runner built by the factory: its spec from the current entry, its output to the log file. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import test from 'ava';
import {
  listProcessEntries,
  SecretScrubber,
  type ProcessEntry,
  type ProcessState,
} from '../../../../sdk/index.js';
import { FolderStorage } from '../../../../core/storage/plugin-storage.js';
import { SupervisorConfig } from '../../../../plugins/supervisor/config.js';
import { LogLineBus } from '../../../../plugins/supervisor/logs/log-line-bus.js';
import { LaunchBook } from '../../../../plugins/supervisor/runtime/launch-book.js';
import { LogWriters } from '../../../../plugins/supervisor/supervision/log-writers.js';
import { createRunner } from '../../../../plugins/supervisor/supervision/runner-factory.js';
import { eventually } from '../../../helpers/eventually.js';
import { program } from '../support/processes.js';
import { memoryLogger } from '../support/runner.js';

function factory(document: Record<string, unknown>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'stackd-runner-factory-'));
  const config = {
    ...(Value.Default(SupervisorConfig, {}) as SupervisorConfig),
    start_check_ms: 200,
  };
  const logger = memoryLogger();
  const writers = new LogWriters({ maxBytes: 1_000_000, keep: 1 }, new LogLineBus(), logger, () =>
    SecretScrubber.of({}),
  );
  let entries: ProcessEntry[] = listProcessEntries(document);
  const states: ProcessState[] = [];
  const context = {
    options: {
      dataDir,
      config,
      readDocument: () => document,
      logger,
      bus: new LogLineBus(),
      onChange: () => undefined,
      launches: new LaunchBook(new FolderStorage(dataDir, 'supervisor'), logger),
    },
    writers,
    entryOf: (name: string) => entries.find((entry) => entry.process_name === name),
    onChange: (state: ProcessState) => states.push(state),
  };
  const removeEntries = (): void => {
    entries = [];
  };
  return { context, dataDir, states, writers, removeEntries };
}

const document = {
  talker: {
    enabled: true,
    process_name: 'Talker',
    command: ['node', program('long-running')],
  },
};

test('the runner launches the entry of its name and writes its output to the log file', async (t) => {
  const { context, dataDir, states, writers } = factory(document);
  const runner = createRunner('Talker', context);
  const { state, failure } = await runner.start();
  t.teardown(async () => {
    await runner.stop();
    await writers.closeAll();
  });
  t.is(failure, null);
  t.is(state.status, 'running');
  t.true(
    states.some((seen) => seen.status === 'running'),
    'state changes reach onChange',
  );
  await eventually(() => {
    try {
      return /long-running started/.test(readFileSync(join(dataDir, 'logs', 'talker.log'), 'utf8'));
    } catch {
      return false;
    }
  });
  t.pass();
});

test('a runner whose entry left the configuration fails its start as a config failure', async (t) => {
  const { context, removeEntries } = factory(document);
  const runner = createRunner('Talker', context);
  removeEntries();
  const { state, failure } = await runner.start();
  t.is(state.pid, null, 'nothing was launched');
  t.is(failure?.kind, 'config');
  t.regex(failure?.message ?? '', /no longer in the configuration/);
});
