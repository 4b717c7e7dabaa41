/** Real events in the journal: sign-ins (never the password) and configuration changes (paths and who). */
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { startHost } from '../../helpers/start-host.js';
import { startWithAdmin } from '../auth/auth-host.js';

interface WireEvent {
  kind: string;
  subject: string;
  data: Record<string, unknown>;
}

test('sign-ins are journaled with their outcome, never the password', async (t) => {
  const { host, api, admin } = await startWithAdmin();
  try {
    await api.post('/auth/login', { username: 'admin', password: 'wrong-Secret-991' });
    await api.post('/auth/login', { username: 'admin', password: 'admin-password' });
    const events = await eventually(async () => {
      const page = await api.get<{ events: WireEvent[] }>('/events?kinds=auth.login', admin);
      return page.body.events.length >= 2 ? page : undefined;
    });
    t.deepEqual(
      events.body.events.map((event) => [event.subject, event.data.outcome]),
      [
        ['admin', 'failed'],
        ['admin', 'ok'],
      ],
    );
    t.false(events.text.includes('wrong-Secret-991'));
    t.false(events.text.includes('admin-password'));
    t.is((await api.get('/events')).status, 401, 'the journal is behind authentication');
  } finally {
    await host.stop();
  }
});

test('a configuration change is journaled with the paths that changed', async (t) => {
  const host = await startHost({ plugins: [builtinPlugin('supervisor')], config: {} });
  try {
    const update = await request(host.url, '/config', {
      body: { updates: { stackd: { journal: { max_events: 5000 } } }, persist: false },
    });
    t.is(update.status, 200, update.text);
    const event = await eventually(async () => {
      const page = await request<{ events: WireEvent[] }>(host.url, '/events?kinds=config.changed');
      return page.body.events[0];
    });
    t.is(event.subject, 'config');
    t.deepEqual(event.data.paths, ['stackd.journal.max_events']);
    t.is(event.data.reason, 'POST /config');
  } finally {
    await host.stop();
  }
});
