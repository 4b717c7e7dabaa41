/**
 * SIGKILL the host while request sync writes its state: the state file is always the old or the
 * new one (atomic write), and the next host picks up without creating anything twice.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { startHost, tempDir } from '../../helpers/start-host.js';
import { startFakeSeerr } from './fake-seerr.js';

test('a host killed mid-sync leaves a valid state; the restart creates nothing twice', async (t) => {
  const primary = await startFakeSeerr('p');
  const sub = await startFakeSeerr('s');
  t.teardown(() => Promise.all([primary.close(), sub.close()]));
  for (let id = 1; id <= 1500; id += 1) primary.add('movie', id);
  const dataDir = tempDir();
  const configPath = join(tempDir(), 'stackd.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      stackd: {
        sync: {
          enabled: true,
          poll_interval_seconds: 10,
          primary: { url: primary.url, api_key: 'p' },
          subordinates: [{ label: 's', url: sub.url, api_key: 's' }],
        },
      },
    }),
  );
  const statePath = join(dataDir, 'sync', 'state.json');
  for (let round = 0; round < 3; round += 1) {
    const host = await startHost({ plugins: [builtinPlugin('sync')], configPath, dataDir });
    const before = sub.creates.length;
    // Killed while it creates (and saves) requests.
    await eventually(
      () => sub.creates.length > before + 50 * (round + 1) || sub.creates.length >= 1500,
      {
        intervalMs: 5,
      },
    );
    await host.stop('SIGKILL');
    if (existsSync(statePath)) t.notThrows(() => JSON.parse(readFileSync(statePath, 'utf8')));
  }
  const last = await startHost({ plugins: [builtinPlugin('sync')], configPath, dataDir });
  t.teardown(() => last.stop());
  await eventually(() => sub.requests.length === 1500, {
    what: 'everything copied',
    timeoutMs: 30_000,
  });
  // A request created but not yet saved before a kill links by its 409 on the next run.
  t.is(sub.requests.length, 1500, 'no duplicate on the subordinate');
  await eventually(
    () =>
      Object.keys(
        (JSON.parse(readFileSync(statePath, 'utf8')) as { requests: Record<string, unknown> })
          .requests,
      ).length === 1500,
    {
      what: 'the state records every request',
      timeoutMs: 30_000,
    },
  );
});
