/** Pending restarts on disk: kept, taken, dropped; dropping one that is not there costs nothing. */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { FolderStorage } from '../../../../core/storage/plugin-storage.js';
import { PendingRestarts } from '../../../../plugins/supervisor/adoption/pending-restarts.js';

const pending = { due_at: Date.now() + 5_000, restarts: 2, reason: 'backing off' };

test('a pending restart is written, taken once, and dropped', async (t) => {
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'pending-')), 'supervisor');
  const restarts = new PendingRestarts(storage);
  await restarts.set('web app', pending);
  t.true(existsSync(storage.path('pending-restarts/web%20app.json')));
  const next = new PendingRestarts(storage);
  t.deepEqual(await next.take('web app'), pending);
  t.is(await next.take('web app'), undefined, 'taken once');
  t.false(existsSync(storage.path('pending-restarts/web%20app.json')));
  await next.set('web app', pending);
  await next.set('web app', null);
  t.deepEqual(readdirSync(storage.path('pending-restarts')), []);
});

test("a previous host's file is dropped by its name; another name leaves it", async (t) => {
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'pending-')), 'supervisor');
  mkdirSync(storage.path('pending-restarts'), { recursive: true });
  writeFileSync(storage.path('pending-restarts/left.json'), JSON.stringify(pending));
  const restarts = new PendingRestarts(storage);
  await restarts.set('other', null);
  t.true(existsSync(storage.path('pending-restarts/left.json')), 'another name’s file stays');
  await restarts.set('left', null);
  t.false(existsSync(storage.path('pending-restarts/left.json')));
});
