/**
 * Routing an event to destinations over a real delivery store: the filters, the cooldown per
 * destination, event type, service and condition, forced sends, and redaction of what is kept.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderStorage } from '../../../../core/storage/plugin-storage.js';
import type { Destination, NotificationsConfig } from '../../../../plugins/notifications/config.js';
import { DeliveryStore } from '../../../../plugins/notifications/delivery/delivery-store.js';
import { routeEvent } from '../../../../plugins/notifications/events/event-routing.js';
import { currentSettings } from '../../../../plugins/notifications/settings.js';
import type { NotableEvent } from '../../../../sdk/index.js';

function openStore(): DeliveryStore {
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'stackd-notify-unit-')), 'n');
  const store = new DeliveryStore(
    () => storage.openDatabase('notifications.sqlite'),
    () => undefined,
  );
  store.tryOpen();
  return store;
}

function config(
  ...destinations: Array<Partial<Destination> & { id: string }>
): NotificationsConfig {
  return currentSettings({
    stackd: {
      notifications: {
        enabled: true,
        destinations: destinations.map((destination) => ({
          url: 'http://127.0.0.1:9/hook',
          name: destination.id,
          ...destination,
        })),
      },
    },
  });
}

const crash: NotableEvent = {
  event_type: 'service.stopped.unexpectedly',
  severity: 'critical',
  title: 'Web stopped unexpectedly',
  body: 'The process exited.',
  service_name: 'Web',
  condition_key: 'Web',
  source: 'notifications',
};

const routed = (rows: ReturnType<typeof routeEvent>) =>
  rows.map((row) => [row.destination_id, row.status]);

test('severity, event type, service, URL and switch filters pick the destinations', (t) => {
  const store = openStore();
  const rows = routeEvent(
    store,
    config(
      { id: 'all' },
      { id: 'quiet', minimum_severity: 'critical' },
      { id: 'loud-only', minimum_severity: 'critical', event_types: ['resource.cpu.high'] },
      { id: 'web', service_names: ['web'] },
      { id: 'db', service_names: ['Postgres'] },
      { id: 'off', enabled: false },
      { id: 'no-url', url: '  ' },
    ),
    crash,
    { forced: false },
  );
  t.deepEqual(routed(rows), [
    ['all', 'queued'],
    ['quiet', 'queued'],
    ['web', 'queued'],
  ]);
  const info = routeEvent(
    store,
    config({ id: 'all' }),
    { ...crash, severity: 'info' },
    {
      forced: false,
    },
  );
  t.deepEqual(info, [], 'below the default minimum (warning)');
});

test('a recovery passes the severity floor, matches its recovered type, and obeys send_recovery', (t) => {
  const store = openStore();
  const recovery: NotableEvent = {
    event_type: 'recovery',
    severity: 'success',
    title: 'Recovered: cpu',
    body: 'below',
    condition_key: 'resource:cpu',
    recovered_event_type: 'resource.cpu.high',
    source: 'notifications',
  };
  const rows = routeEvent(
    store,
    config(
      { id: 'cpu', minimum_severity: 'critical', event_types: ['resource.cpu.high'] },
      { id: 'disk', event_types: ['resource.disk.high'] },
      { id: 'mute', send_recovery: false },
    ),
    recovery,
    { forced: false },
  );
  t.deepEqual(routed(rows), [['cpu', 'queued']]);
  t.is(rows[0]?.metadata.recovered_event_type, 'resource.cpu.high');
});

test('within the cooldown the same condition is suppressed; another service or a forced send is not', (t) => {
  const store = openStore();
  const settings = config({ id: 'hook', cooldown_sec: 300 });
  t.deepEqual(routed(routeEvent(store, settings, crash, { forced: false })), [['hook', 'queued']]);
  t.deepEqual(routed(routeEvent(store, settings, crash, { forced: false })), [
    ['hook', 'suppressed'],
  ]);
  const other = { ...crash, service_name: 'Api', condition_key: 'Api' };
  t.deepEqual(routed(routeEvent(store, settings, other, { forced: false })), [['hook', 'queued']]);
  t.deepEqual(routed(routeEvent(store, settings, crash, { forced: true })), [['hook', 'queued']]);
  const none = config({ id: 'hook', cooldown_sec: 0 });
  t.deepEqual(routed(routeEvent(store, none, crash, { forced: false })), [['hook', 'queued']]);
});

test('forced sends skip filters but not the listed ids; a disabled destination only when allowed', (t) => {
  const store = openStore();
  const settings = config(
    { id: 'a', minimum_severity: 'critical' },
    { id: 'b', enabled: false },
    { id: 'c', service_names: ['Other'] },
  );
  const manual = { ...crash, severity: 'info' as const };
  t.deepEqual(routed(routeEvent(store, settings, manual, { forced: true })), [
    ['a', 'queued'],
    ['c', 'queued'],
  ]);
  t.deepEqual(
    routed(routeEvent(store, settings, manual, { forced: true, destinationIds: ['b'] })),
    [],
  );
  const test_ = routeEvent(store, settings, manual, {
    forced: true,
    destinationIds: ['b'],
    allowDisabled: true,
  });
  t.deepEqual(routed(test_), [['b', 'queued']]);
  t.true(test_[0]?.forced);
  t.true(store.due(10, new Set()).some((row) => row.id === test_[0]?.id && row.allowDisabled));
});

test('one event id for every row; text redacted and cut; an unknown severity kept as info', (t) => {
  const store = openStore();
  const rows = routeEvent(
    store,
    config({ id: 'a' }, { id: 'b' }),
    {
      ...crash,
      severity: 'loud' as never,
      title: 'x'.repeat(400),
      body: 'token=hunter2secret',
      details: { note: 'password=hunter2secret', count: 3 },
    },
    { forced: true },
  );
  t.is(rows.length, 2);
  t.is(rows[0]?.event_id, rows[1]?.event_id);
  t.regex(rows[0]?.event_id ?? '', /^[0-9a-f]{32}$/);
  t.is(rows[0]?.title.length, 300);
  t.is(rows[0]?.severity, 'info');
  t.false(JSON.stringify(rows[0]).includes('hunter2secret'));
  t.like(rows[0]?.metadata, { count: 3, source: 'notifications', condition_key: 'Web' });
});
