/** The data dir's health: the first free-space reading is awaited, later ones answer at once. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { StorageStatus } from '../../../core/storage/storage-status.js';

test('the first health answer waits for statfs; the next ones are synchronous', async (t) => {
  const status = new StorageStatus(mkdtempSync(join(tmpdir(), 'stackd-storage-')));
  const first = status.health();
  t.true(first instanceof Promise, 'no reading yet');
  t.deepEqual(await first, { healthy: true });
  const second = status.health();
  t.false(second instanceof Promise, 'the reading is reused');
  t.deepEqual(second, { healthy: true });
});

test('a write failure makes it unhealthy for a minute, still synchronously', async (t) => {
  const status = new StorageStatus(mkdtempSync(join(tmpdir(), 'stackd-storage-')));
  await status.health();
  status.recordFailure('unwritable');
  const answer = status.health();
  t.false(answer instanceof Promise);
  t.like(answer, { healthy: false });
  t.regex((answer as { details: string }).details, /unwritable, 1× in the last minute/);
});
