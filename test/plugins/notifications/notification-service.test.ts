/**
 * The service over a real store, worker and receiver on 127.0.0.1: automatic events need the
 * global switch, a test waits for its outcome even to a disabled destination, a send names its
 * deliveries, and each refusal is a 400 naming the field.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogSink, ScopedLogger } from '../../../core/logging/logger.js';
import { FolderStorage } from '../../../core/storage/plugin-storage.js';
import type { NotificationsConfig } from '../../../plugins/notifications/config.js';
import { DeliveryStore } from '../../../plugins/notifications/delivery/delivery-store.js';
import { DeliveryWorker } from '../../../plugins/notifications/delivery/delivery-worker.js';
import { NotificationService } from '../../../plugins/notifications/notification-service.js';
import { currentSettings } from '../../../plugins/notifications/settings.js';
import { HttpError, OutboundClient, type NotableEvent } from '../../../sdk/index.js';
import { eventually } from '../../helpers/eventually.js';
import { startReceiver } from './delivery/receiver.js';

const outbound = new OutboundClient();
test.after.always(() => outbound.close());

async function rig(t: ExecutionContext, enabled: boolean) {
  const receiver = await startReceiver({ status: 200 });
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'stackd-notify-unit-')), 'n');
  const store = new DeliveryStore(
    () => storage.openDatabase('notifications.sqlite'),
    () => undefined,
  );
  store.tryOpen();
  const settings: NotificationsConfig = currentSettings({
    stackd: {
      notifications: {
        enabled,
        destinations: [
          { id: 'on', name: 'On', url: receiver.url },
          { id: 'off', name: 'Off', url: receiver.url, enabled: false },
          { id: 'blank', name: 'Blank', url: '' },
        ],
      },
    },
  });
  const logger = new ScopedLogger(new LogSink('error', () => undefined), 'notifications');
  const worker = new DeliveryWorker(store, () => settings, logger, outbound);
  const service = new NotificationService(store, worker, () => settings, logger);
  t.teardown(async () => {
    await worker.stop();
    await receiver.close();
  });
  return { receiver, store, service };
}

const crash: NotableEvent = {
  event_type: 'service.stopped.unexpectedly',
  severity: 'critical',
  title: 'Web stopped',
  body: 'exit 1',
  service_name: 'Web',
  source: 'notifications',
};

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return [error.status, error.code, error.field];
    throw error;
  }
  return undefined;
}

test('automatic events go out only with the global switch on', async (t) => {
  const off = await rig(t, false);
  off.service.emit(crash);
  t.deepEqual(off.store.history(10), []);

  const on = await rig(t, true);
  on.service.emit(crash);
  const [row] = on.store.history(10);
  t.like(row, { destination_id: 'on', event_type: 'service.stopped.unexpectedly' });
  await eventually(() => on.store.get(row?.id ?? '')?.status === 'completed', {
    timeoutMs: 30_000,
  });
  t.is(on.receiver.received.length, 1);
});

test('a test reaches a disabled destination and answers its outcome', async (t) => {
  const r = await rig(t, false);
  const delivered = await r.service.test('off', '  ', undefined);
  t.like(delivered, {
    destination_id: 'off',
    status: 'completed',
    title: 'stackd notification test',
    forced: true,
  });
  t.is(r.receiver.received.length, 1);
  t.deepEqual(
    await r.service
      .test('nope')
      .catch((error: HttpError) => [error.status, error.code, error.field]),
    [400, 'NOTIFICATIONS_DESTINATION_UNKNOWN', 'destination_id'],
  );
  await t.throwsAsync(r.service.test('blank'), { message: /no configured URL/ });
});

test('a send goes to enabled destinations with a URL, or the listed ones', async (t) => {
  const r = await rig(t, false);
  const sent = r.service.send('Hello', 'World', 'info');
  t.is(sent.status, 'queued');
  t.deepEqual(
    sent.delivery_ids.map((id) => r.store.get(id)?.destination_id),
    ['on'],
  );
  t.deepEqual(
    refusal(() => r.service.send('Hello', 'World', 'loud')),
    [400, 'NOTIFICATIONS_SEVERITY_UNSUPPORTED', 'severity'],
  );
  t.deepEqual(
    refusal(() => r.service.send('Hello', 'World', 'info', ['off'])),
    [400, 'NOTIFICATIONS_NO_DESTINATION', 'destination_ids'],
  );
});

test('history and clearing pass through to the store', async (t) => {
  const r = await rig(t, true);
  r.service.send('Hello', 'World', 'warning');
  await eventually(() => r.service.history(10, 'completed').length === 1, { timeoutMs: 30_000 });
  t.is(r.service.history(10, undefined, 'manual').length, 1);
  t.is(r.service.clearHistory(), 1);
  t.deepEqual(r.service.history(10), []);
});
