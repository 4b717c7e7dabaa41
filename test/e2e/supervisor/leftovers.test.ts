/**
 * A host killed with SIGKILL leaves its children running; the next host adopts them — unless the
 * configuration changed meanwhile: then the leftover is stopped and started fresh, saying why.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

test('a leftover whose configuration changed while no host ran is restarted fresh', async (t) => {
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
  const configPath = first.configPath as string;
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, object>;
  config.lone = { ...config.lone, env: { CHANGED: '1' } };
  writeFileSync(configPath, JSON.stringify(config));

  const second = await startHost({
    configPath: first.configPath as string,
    dataDir: first.dataDir,
    plugins: [SUPERVISOR_PLUGIN],
  });
  try {
    await eventually(() => !isAlive(before), { what: 'the leftover to be stopped' });
    const after = await eventually(
      async () => {
        const status = await serviceStatus(second, 'Lone');
        return status.status === 'running' && status.pid !== before ? status : undefined;
      },
      { what: 'Lone running again' },
    );
    t.true(isAlive(after.pid as number));
    t.regex(second.output(), /configuration changed while no host ran; restarting it/);
  } finally {
    await second.stop();
  }
});
