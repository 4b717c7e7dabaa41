/**
 * A locked notification database (another writer holds its lock) leaves the plugin
 * running: queue and history routes answer 503, config and events stay available, and it
 * recovers by itself once the lock is gone.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { startHost } from '../../helpers/start-host.js';
import { startReceiver } from './receivers.js';

test('locked storage: 503 on queue and history, config and events still answer, then recovery', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const host = await startHost({
    plugins: [builtinPlugin('notifications')],
    config: {
      stackd: {
        notifications: {
          enabled: true,
          destinations: [{ id: 'ops', name: 'ops', url: receiver.url, minimum_severity: 'info' }],
        },
      },
    },
  });
  t.teardown(() => host.stop());
  t.is((await request(host.url, '/notifications/history')).status, 200);
  // node-sqlite3-wasm locks with a directory beside the database: another writer's lock.
  const lock = join(host.dataDir, 'notifications', 'notifications.sqlite.lock');
  mkdirSync(lock);
  const refused = await request(host.url, '/notifications/send', {
    body: { title: 't', body: 'b', severity: 'info' },
  });
  t.is(refused.status, 503, refused.text);
  t.is(refused.body.code, 'NOTIFICATIONS_STORAGE_LOCKED');
  t.is((await request(host.url, '/notifications/history')).status, 503);
  t.is((await request(host.url, '/notifications/config')).status, 200);
  t.is((await request(host.url, '/notifications/events')).status, 200);
  t.is((await request(host.url, '/health')).status, 200);
  rmSync(lock, { recursive: true });
  await eventually(async () => (await request(host.url, '/notifications/history')).status === 200, {
    what: 'storage back',
    timeoutMs: 15_000,
  });
});
