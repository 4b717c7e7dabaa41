/**
 * GET /notifications/events against the real host with only the notifications plugin loaded:
 * the event types and severities the dashboard offers in its rule editor.
 */
import test from 'ava';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';
import { request } from '../../helpers/http.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { NOTABLE_EVENT_TYPES, NOTABLE_SEVERITIES } from '../../../sdk/index.js';

let host: RunningHostProcess;

test.before(async () => {
  host = await startHost({
    plugins: [builtinPlugin('notifications')],
    config: {
      stackd: {
        notifications: {
          enabled: true,
          max_attempts: 3,
          destinations: [
            {
              id: 'hook',
              provider: 'discord',
              url: 'https://discord.example/api/webhooks/1/secret-token',
              headers: { Authorization: 'Bearer secret-token' },
            },
            { id: 'empty', enabled: false },
          ],
        },
      },
    },
  });
});

test.after.always(async () => {
  await host?.stop();
});

test('events lists every notable event type and the severities lowest first', async (t) => {
  const response = await request<{ event_types: string[]; severities: string[] }>(
    host.url,
    '/notifications/events',
  );
  t.is(response.status, 200);
  t.deepEqual(response.body.event_types, [...NOTABLE_EVENT_TYPES]);
  t.true(response.body.event_types.includes('service.stopped.unexpectedly'));
  t.deepEqual(response.body.severities, [...NOTABLE_SEVERITIES]);
  t.is(response.body.severities[0], 'info');
});

test('the /api alias serves the same events', async (t) => {
  const response = await request<{ severities: string[] }>(host.url, '/api/notifications/events');
  t.is(response.status, 200);
  t.deepEqual(response.body.severities, [...NOTABLE_SEVERITIES]);
});

test('config hides destination url and headers behind booleans', async (t) => {
  const response = await request<Record<string, unknown>>(host.url, '/notifications/config');
  t.is(response.status, 200);
  t.like(response.body, { enabled: true, max_attempts: 3, retry_base_sec: 30 });
  const destinations = response.body.destinations as Array<Record<string, unknown>>;
  t.like(destinations[0], {
    id: 'hook',
    provider: 'discord',
    enabled: true,
    url: '',
    headers: {},
    url_configured: true,
    headers_configured: true,
  });
  t.like(destinations[1], {
    id: 'empty',
    provider: 'webhook',
    enabled: false,
    url_configured: false,
  });
  t.false(JSON.stringify(response.body).includes('secret-token'));
});

test('the notifications capability flag is on while the plugin runs (the dashboard reads it)', async (t) => {
  const flags = await request<Record<string, boolean>>(host.url, '/process/capabilities');
  t.is(flags.body.notifications, true);
});
