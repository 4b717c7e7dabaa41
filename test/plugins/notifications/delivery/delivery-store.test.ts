/**
 * The delivery store over a real SQLite file: a row's life (queued, retrying, completed, failed,
 * postponed), history and its filters, clearing and pruning, cooldown keys, the status counter,
 * and a locked database turning the store unavailable (503) instead of failing the plugin.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderStorage } from '../../../../core/storage/plugin-storage.js';
import {
  DeliveryStore,
  type DeliveryStatus,
  type NewDelivery,
} from '../../../../plugins/notifications/delivery/delivery-store.js';
import { HttpError, type Database } from '../../../../sdk/index.js';

function storeWith(open?: () => Database) {
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'stackd-notify-unit-')), 'n');
  const statuses: DeliveryStatus[] = [];
  const locks: string[] = [];
  const store = new DeliveryStore(
    open ?? (() => storage.openDatabase('notifications.sqlite')),
    (message) => locks.push(message),
    (status) => statuses.push(status),
  );
  return { store, storage, statuses, locks };
}

const delivery = (overrides: Partial<NewDelivery> = {}): NewDelivery => ({
  event_id: 'e1',
  destination_id: 'd1',
  destination_name: 'Hook',
  event_type: 'service.stopped.unexpectedly',
  severity: 'critical',
  title: 'Web stopped',
  body: 'The process exited.',
  service_name: 'Web',
  forced: false,
  metadata: { source: 'notifications', exit_code: 1 },
  status: 'queued',
  allowDisabled: false,
  ...overrides,
});

test('a queued row is due at once, and each outcome is recorded with the counter told', (t) => {
  const { store, statuses } = storeWith();
  t.true(store.tryOpen());
  const row = store.insert(delivery());
  t.like(row, { status: 'queued', attempts: 0, forced: false, error: null, sent_at: null });
  t.deepEqual(row.metadata, { source: 'notifications', exit_code: 1 });
  t.deepEqual(
    store.due(10, new Set()).map((due) => [due.id, due.allowDisabled]),
    [[row.id, false]],
  );
  t.deepEqual(store.due(10, new Set([row.id])), [], 'rows in flight are left out');

  const later = Date.now() / 1000 + 60;
  store.retry(row.id, 1, 'could not reach the provider', later);
  t.like(store.get(row.id), { status: 'retrying', attempts: 1, next_attempt_at: later });
  t.deepEqual(store.due(10, new Set()), [], 'not due before its next attempt');
  t.is(store.nextDueAt(), later);

  store.completed(row.id, 2);
  const done = store.get(row.id);
  t.like(done, { status: 'completed', attempts: 2, error: null, next_attempt_at: null });
  t.true((done?.sent_at ?? 0) > 0);
  t.is(store.nextDueAt(), null);

  const other = store.insert(delivery({ event_id: 'e2' }));
  store.failed(other.id, 3, 'gave up');
  t.like(store.get(other.id), { status: 'failed', attempts: 3, error: 'gave up' });
  t.deepEqual(statuses, ['queued', 'retrying', 'completed', 'queued', 'failed']);
});

test('a suppressed row is never due; postponing spends no attempt', (t) => {
  const { store } = storeWith();
  store.tryOpen();
  const suppressed = store.insert(delivery({ status: 'suppressed' }));
  t.is(suppressed.next_attempt_at, null);
  const forced = store.insert(delivery({ forced: true, allowDisabled: true }));
  t.deepEqual(
    store.due(10, new Set()).map((row) => [row.id, row.forced, row.allowDisabled]),
    [[forced.id, true, true]],
  );
  const at = Date.now() / 1000 + 30;
  store.postpone(forced.id, at);
  t.like(store.get(forced.id), { status: 'queued', attempts: 0, next_attempt_at: at });
});

test('history: newest first, filtered by status and event type; clear keeps pending rows', (t) => {
  const { store } = storeWith();
  store.tryOpen();
  const first = store.insert(delivery({ event_type: 'manual' }));
  const second = store.insert(delivery({ status: 'suppressed' }));
  const third = store.insert(delivery());
  store.completed(first.id, 1);
  t.deepEqual(
    store.history(10).map((row) => row.id),
    [third.id, second.id, first.id],
  );
  t.deepEqual(
    store.history(10, 'suppressed').map((row) => row.id),
    [second.id],
  );
  t.deepEqual(
    store.history(10, undefined, 'manual').map((row) => row.id),
    [first.id],
  );
  t.is(store.history(1).length, 1);
  t.is(store.clearHistory(), 2, 'completed and suppressed go');
  t.deepEqual(
    store.history(10).map((row) => row.id),
    [third.id],
  );
  t.is(store.prune(1), 0, 'pending rows are never pruned, and nothing is old yet');
});

test('cooldown keys remember the last send', (t) => {
  const { store } = storeWith();
  store.tryOpen();
  t.is(store.lastSent('cooldown|d1|x||'), null);
  const before = Date.now() / 1000;
  store.markSent('cooldown|d1|x||');
  const at = store.lastSent('cooldown|d1|x||') ?? 0;
  t.true(at >= before - 0.001 && at <= Date.now() / 1000 + 0.001);
  store.markSent('cooldown|d1|x||');
  t.true((store.lastSent('cooldown|d1|x||') ?? 0) >= at);
});

test('a database locked at open leaves the store unavailable with a 503, told once per try', (t) => {
  let opens = 0;
  const { store, locks } = storeWith(() => {
    opens += 1;
    throw new Error('SQLITE_BUSY: database is locked');
  });
  t.false(store.tryOpen());
  t.false(store.available, 'retried at most every 5 s: no second open yet');
  t.is(opens, 1);
  t.is(locks.length, 1);
  const error = t.throws(() => store.history(10), { instanceOf: HttpError });
  t.is(error?.status, 503);
  t.is(error?.code, 'NOTIFICATIONS_STORAGE_LOCKED');
  t.is(store.nextDueAt(), null);
});

test('an open error that is not a lock is thrown, not hidden', (t) => {
  const { store } = storeWith(() => {
    throw new Error('disk I/O error');
  });
  t.throws(() => store.tryOpen(), { message: /disk I\/O error/ });
});
