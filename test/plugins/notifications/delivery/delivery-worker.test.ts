/**
 * The worker against real receivers on 127.0.0.1 and a real delivery store: retries with
 * backoff, giving up, the global switch, disabled and removed destinations, and a stop that
 * leaves a cut-off delivery queued for the next start.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogSink, ScopedLogger } from '../../../../core/logging/logger.js';
import { FolderStorage } from '../../../../core/storage/plugin-storage.js';
import type { Destination, NotificationsConfig } from '../../../../plugins/notifications/config.js';
import {
  DeliveryStore,
  type NewDelivery,
} from '../../../../plugins/notifications/delivery/delivery-store.js';
import { DeliveryWorker } from '../../../../plugins/notifications/delivery/delivery-worker.js';
import { currentSettings } from '../../../../plugins/notifications/settings.js';
import { OutboundClient } from '../../../../sdk/index.js';
import { eventually } from '../../../helpers/eventually.js';
import { startReceiver, type Reply } from './receiver.js';

const outbound = new OutboundClient();
test.after.always(() => outbound.close());

const WAIT = { timeoutMs: 30_000 };

function settingsOf(
  destination: Partial<Destination> & { url: string },
  overrides: Record<string, unknown> = {},
): NotificationsConfig {
  return currentSettings({
    stackd: {
      notifications: {
        enabled: true,
        retry_base_sec: 0.05,
        max_attempts: 3,
        destinations: [{ id: 'd1', name: 'Hook', ...destination }],
        ...overrides,
      },
    },
  });
}

async function rig(replies: Reply[], destination: Partial<Destination> = {}, overrides = {}) {
  const receiver = await startReceiver(...replies);
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'stackd-notify-unit-')), 'n');
  const store = new DeliveryStore(
    () => storage.openDatabase('notifications.sqlite'),
    () => undefined,
  );
  store.tryOpen();
  const state = { settings: settingsOf({ url: receiver.url, ...destination }, overrides) };
  const lines: string[] = [];
  const logger = new ScopedLogger(new LogSink('warn', (line) => lines.push(line)), 'notifications');
  const worker = new DeliveryWorker(store, () => state.settings, logger, outbound);
  return { receiver, store, state, worker, lines };
}

type Rig = Awaited<ReturnType<typeof rig>>;

const queue = (r: Rig, overrides: Partial<NewDelivery> = {}) =>
  r.store.insert({
    event_id: 'e1',
    destination_id: 'd1',
    destination_name: 'Hook',
    event_type: 'manual',
    severity: 'warning',
    title: 'Disk almost full',
    body: '95 %',
    service_name: null,
    forced: false,
    metadata: {},
    status: 'queued',
    allowDisabled: false,
    ...overrides,
  });

async function finish(r: Rig): Promise<void> {
  await r.worker.stop();
  await r.receiver.close();
}

test('a 500 is retried after the backoff, then completed; the payload is the webhook JSON', async (t) => {
  const r = await rig([{ status: 500 }, { status: 200 }]);
  t.teardown(() => finish(r));
  const row = queue(r);
  r.worker.start();
  const done = await eventually(() => {
    const current = r.store.get(row.id);
    return current?.status === 'completed' ? current : undefined;
  }, WAIT);
  t.is(done.attempts, 2);
  t.is(r.receiver.received.length, 2);
  t.like(JSON.parse(r.receiver.received[0]?.body ?? '{}'), {
    source: 'stackd',
    event_id: 'e1',
    title: 'Disk almost full',
  });
  t.true(r.lines.some((line) => /notification to Hook failed: HTTP 500/.test(line)));
});

test('a 4xx gives up at once; repeated 5xx give up after max_attempts', async (t) => {
  const fatal = await rig([{ status: 404 }]);
  t.teardown(() => finish(fatal));
  const row = queue(fatal);
  fatal.worker.start();
  const failed = await eventually(() => {
    const current = fatal.store.get(row.id);
    return current?.status === 'failed' ? current : undefined;
  }, WAIT);
  t.is(failed.attempts, 1);
  t.is(failed.error, 'could not reach the provider');

  const flaky = await rig([{ status: 502 }], {}, { max_attempts: 2 });
  t.teardown(() => finish(flaky));
  const second = queue(flaky);
  flaky.worker.start();
  const exhausted = await eventually(() => {
    const current = flaky.store.get(second.id);
    return current?.status === 'failed' ? current : undefined;
  }, WAIT);
  t.is(exhausted.attempts, 2);
  t.is(flaky.receiver.received.length, 2);
});

test('with notifications off automatic rows wait and forced ones go', async (t) => {
  const r = await rig([{ status: 200 }], {}, { enabled: false });
  t.teardown(() => finish(r));
  const automatic = queue(r);
  const forced = queue(r, { forced: true, event_id: 'e2' });
  r.worker.start();
  await eventually(() => r.store.get(forced.id)?.status === 'completed', WAIT);
  t.is(r.store.get(automatic.id)?.status, 'queued');
  t.is(r.receiver.received.length, 1);
  t.is(JSON.parse(r.receiver.received[0]?.body ?? '{}').event_id, 'e2');
});

test('a disabled destination postpones its rows without an attempt, unless a test allows it', async (t) => {
  const r = await rig([{ status: 200 }], { enabled: false });
  t.teardown(() => finish(r));
  const held = queue(r);
  const test_ = queue(r, { forced: true, allowDisabled: true, event_id: 'e2' });
  r.worker.start();
  await eventually(() => r.store.get(test_.id)?.status === 'completed', WAIT);
  const postponed = await eventually(() => {
    const current = r.store.get(held.id);
    return (current?.next_attempt_at ?? 0) > Date.now() / 1000 + 20 ? current : undefined;
  }, WAIT);
  t.like(postponed, { status: 'queued', attempts: 0 });
  t.is(r.receiver.received.length, 1);
});

test('a row whose destination was removed fails', async (t) => {
  const r = await rig([{ status: 200 }]);
  t.teardown(() => finish(r));
  const row = queue(r, { destination_id: 'gone' });
  r.worker.start();
  const failed = await eventually(() => {
    const current = r.store.get(row.id);
    return current?.status === 'failed' ? current : undefined;
  }, WAIT);
  t.is(failed.error, 'Destination no longer exists.');
  t.is(r.receiver.received.length, 0);
});

test('a stop cuts off a slow delivery and leaves it queued for the next start', async (t) => {
  const r = await rig([{ status: 200, delayMs: 10_000 }]);
  t.teardown(() => r.receiver.close());
  const row = queue(r);
  r.worker.start();
  await eventually(() => r.receiver.received.length === 1, WAIT);
  await r.worker.stop();
  t.like(r.store.get(row.id), { status: 'queued', attempts: 0 });
});
