/** A host killed with SIGKILL leaves its children running; the next host stops them before starting. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { startHost } from '../../helpers/start-host.js';
import {
  fixtureBlock,
  isAlive,
  program,
  serviceStatus,
  startSupervisor,
  SUPERVISOR_PLUGIN,
} from './support.js';

test('leftovers of a crashed host are terminated at the next boot, then started fresh', async (t) => {
  const services = { lone: fixtureBlock('Lone', program('long-running')) };
  const first = await startSupervisor(services);
  const before = await eventually(async () => (await serviceStatus(first, 'Lone')).pid, {
    what: 'Lone running',
  });
  // Recorded durably before the launch was reported: on disk by the time the pid is visible.
  const record = join(first.dataDir, 'supervisor', 'groups', `${before}.json`);
  t.true(existsSync(record), 'the launched group is recorded');
  t.like(JSON.parse(readFileSync(record, 'utf8')), { process_name: 'Lone', pid: before });
  await first.stop('SIGKILL');
  t.true(isAlive(before), 'the child outlived its host');

  const second = await startHost({
    configPath: first.configPath as string,
    dataDir: first.dataDir,
    plugins: [SUPERVISOR_PLUGIN],
  });
  try {
    await eventually(() => !isAlive(before), { what: 'the leftover to be stopped' });
    const after = await eventually(async () => (await serviceStatus(second, 'Lone')).pid, {
      what: 'Lone running again',
    });
    t.not(after, before);
    t.regex(second.output(), /left running by a previous host/);
  } finally {
    await second.stop();
  }
});
