/**
 * The notification settings: defaults for a missing or invalid slice, secrets write-only in the
 * public view, a blank url or empty headers keeping the saved ones, and each refusal naming the
 * field.
 */
import test from 'ava';
import type { NotificationsConfig } from '../../../plugins/notifications/config.js';
import {
  currentSettings,
  enabledProcessNames,
  mergeSettings,
  publicSettings,
} from '../../../plugins/notifications/settings.js';
import { HttpError, type JsonRecord } from '../../../sdk/index.js';

const saved = (): NotificationsConfig =>
  currentSettings({
    stackd: {
      notifications: {
        enabled: true,
        destinations: [
          {
            id: 'hook',
            name: 'Hook',
            url: 'https://hooks.example.org/secret-path',
            headers: { authorization: 'Bearer abc' },
            service_names: ['Web', 'Gone'],
          },
        ],
      },
    },
  });

const noCheck = () => undefined;

test('a missing slice, and an invalid one, read as the defaults', (t) => {
  const defaults = currentSettings({});
  t.false(defaults.enabled);
  t.is(defaults.monitor_interval_sec, 30);
  t.deepEqual(defaults.destinations, []);
  t.is(defaults.thresholds.cpu_percent, 85);
  t.deepEqual(currentSettings({ stackd: { notifications: { max_attempts: 99 } } }), defaults);
});

test('enabled process names: only blocks switched on', (t) => {
  const document: JsonRecord = {
    web: { process_name: 'Web', enabled: true },
    api: { process_name: 'Api', enabled: 'true' },
    db: { process_name: 'Db', enabled: false },
    stackd: {},
  };
  t.deepEqual(enabledProcessNames(document).sort(), ['Api', 'Web']);
});

test('the public view blanks url and headers, says whether they are set, and hides gone services', (t) => {
  const view = publicSettings(saved(), ['Web']);
  t.like(view.destinations[0], {
    url: '',
    headers: {},
    url_configured: true,
    headers_configured: true,
    service_names: ['Web'],
  });
  t.false(JSON.stringify(view).includes('secret-path'));
  t.false(JSON.stringify(view).includes('Bearer'));
});

test('a blank url and empty headers posted back keep the saved ones; a new id is made when blank', (t) => {
  const checked: string[] = [];
  const next = mergeSettings(
    saved(),
    {
      monitor_interval_sec: 10,
      unknown_key: 'ignored',
      destinations: [
        { id: 'hook', name: 'Renamed', url: ' ', headers: {}, url_configured: true },
        { name: 'New', url: 'https://new.example.org/x', service_names: ['Web', ' Web ', ''] },
      ],
    },
    ['Web'],
    (url, field) => checked.push(`${field}=${url}`),
  );
  t.is(next.monitor_interval_sec, 10);
  t.false('unknown_key' in next);
  const [kept, added] = next.destinations;
  t.like(kept, {
    id: 'hook',
    name: 'Renamed',
    url: 'https://hooks.example.org/secret-path',
    headers: { authorization: 'Bearer abc' },
    service_names: [],
  });
  t.false('url_configured' in (kept ?? {}), 'the view booleans are not stored');
  t.regex(added?.id ?? '', /^[0-9a-f]{32}$/);
  t.deepEqual(added?.service_names, ['Web']);
  t.deepEqual(checked, [
    'config.destinations[0].url=https://hooks.example.org/secret-path',
    'config.destinations[1].url=https://new.example.org/x',
  ]);
});

function refusal(posted: JsonRecord, enabled: readonly string[] = ['Web']) {
  try {
    mergeSettings(saved(), posted, enabled, noCheck);
  } catch (error) {
    if (error instanceof HttpError) return [error.status, error.code, error.field];
    throw error;
  }
  return undefined;
}

test('refusals name the field: not an object, a duplicate id, a service not enabled, a bad value', (t) => {
  t.deepEqual(refusal({ destinations: ['x'] }), [
    400,
    'NOTIFICATIONS_CONFIG_INVALID',
    'config.destinations[0]',
  ]);
  t.deepEqual(refusal({ destinations: [{ id: 'a' }, { id: 'a' }] }), [
    400,
    'NOTIFICATIONS_CONFIG_INVALID',
    'config.destinations[1].id',
  ]);
  t.deepEqual(refusal({ destinations: [{ id: 'a', service_names: ['Db'] }] }), [
    400,
    'NOTIFICATIONS_SERVICE_UNKNOWN',
    'config.destinations[0].service_names',
  ]);
  const [status, code, field] = refusal({ max_attempts: 0, destinations: [] }) ?? [];
  t.deepEqual([status, code], [400, 'NOTIFICATIONS_CONFIG_INVALID']);
  t.is(field, 'config.max_attempts');
});

test('the URL check runs on every non-blank url and its refusal stands', (t) => {
  t.throws(
    () =>
      mergeSettings(saved(), { destinations: [{ id: 'hook', url: 'ftp://x' }] }, [], (url) => {
        throw new Error(`refused ${url}`);
      }),
    { message: 'refused ftp://x' },
  );
});
