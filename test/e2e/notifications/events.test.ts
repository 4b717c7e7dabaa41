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
    config: { stackd: { notifications: { enabled: true, max_attempts: 3 } } },
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
