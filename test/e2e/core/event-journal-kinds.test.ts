/**
 * The plugins' own journal kinds, each from the real action: user accounts (no secrets), a
 * symlink job, request-sync cycles and a notification delivery that gave up. Also the journal's
 * size in `/health?detail=true`.
 */
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { startHost } from '../../helpers/start-host.js';
import { startWithAdmin } from '../auth/auth-host.js';
import { program } from '../../plugins/supervisor/support/processes.js';
import { startReceiver } from '../notifications/receivers.js';
import { startFakeSeerr } from '../sync/fake-seerr.js';
import { linkTree, startSymlinkHost } from '../symlinks/support.js';

interface WireEvent {
  cursor: number;
  kind: string;
  subject: string;
  data: Record<string, unknown>;
}

type Get = (path: string) => Promise<{ status: number; text: string; body: unknown }>;

/** The events of `kinds` once there are at least `count`, and the page's text. */
async function journaled(
  get: Get,
  kinds: string,
  count: number,
): Promise<{ events: WireEvent[]; text: string }> {
  return eventually(
    async () => {
      const page = await get(`/events?kinds=${kinds}&limit=1000`);
      const events = (page.body as { events?: WireEvent[] }).events ?? [];
      return events.length >= count ? { events, text: page.text } : undefined;
    },
    { what: `${count} event(s) of ${kinds}`, timeoutMs: 30_000 },
  );
}

test('user accounts: created, disabled, re-enabled, password changed, deleted — by whom, no secret', async (t) => {
  const { host, api, admin } = await startWithAdmin();
  t.teardown(() => host.stop());
  const created = await api.post(
    '/auth/users',
    { username: 'bob', password: 'bob-Secret-7731' },
    admin,
  );
  t.is(created.status, 200, created.text);
  t.is((await api.put('/auth/users/bob', { disabled: true }, admin)).status, 200);
  t.is((await api.put('/auth/users/bob', { disabled: false }, admin)).status, 200);
  const reset = await api.put('/auth/users/bob', { password: 'bob-Other-Secret-55' }, admin);
  t.is(reset.status, 200, reset.text);
  t.is((await api.del('/auth/users/bob', admin)).status, 200);

  const kinds = [
    'auth.user.created',
    'auth.user.disabled',
    'auth.user.password_changed',
    'auth.user.deleted',
  ].join(',');
  const { events, text } = await journaled((path) => api.get(path, admin), kinds, 6);
  t.deepEqual(
    events.map((event) => [event.kind, event.subject, event.data]),
    [
      ['auth.user.created', 'admin', { by: null }],
      ['auth.user.created', 'bob', { by: 'admin' }],
      ['auth.user.disabled', 'bob', { by: 'admin', disabled: true }],
      ['auth.user.disabled', 'bob', { by: 'admin', disabled: false }],
      ['auth.user.password_changed', 'bob', { by: 'admin', sign_ins_revoked: 0 }],
      ['auth.user.deleted', 'bob', { by: 'admin' }],
    ],
  );
  for (const secret of ['bob-Secret-7731', 'bob-Other-Secret-55', 'admin-password', 'scrypt'])
    t.false(text.includes(secret), secret);
});

test('a symlink job: started, then finished with its counts', async (t) => {
  const tree = linkTree();
  const host = await startSymlinkHost([tree.links]);
  t.teardown(() => host.stop());
  const rule = { from_prefix: tree.oldRoot, to_prefix: tree.newRoot };
  const ack = await request(host.url, '/process/symlink-repair-async', {
    body: { rewrite_rules: [rule], roots: [tree.links], dry_run: false },
  });
  t.is(ack.status, 200, ack.text);
  const get: Get = (path) => request(host.url, path);
  const { events } = await journaled(get, 'symlink.job.started,symlink.job.finished', 2);
  const [started, finished] = events;
  t.like(started, {
    kind: 'symlink.job.started',
    data: { job_id: ack.body.job_id, operation: 'symlink_repair' },
  });
  t.like(finished, {
    kind: 'symlink.job.finished',
    subject: started?.subject,
    data: { job_id: ack.body.job_id, outcome: 'completed', error: null },
  });
  const counts = finished?.data.counts as Record<string, number>;
  t.true(counts.changed !== undefined && counts.changed >= 2, JSON.stringify(counts));
  const status = await request(host.url, `/process/symlink-job-status?job_id=${ack.body.job_id}`);
  t.is(counts.changed, status.body.progress?.changed ?? status.body.result?.changed);
});

test('request-sync cycles: started and finished with what they created, and a failed poll', async (t) => {
  const primary = await startFakeSeerr('pkey');
  const subordinate = await startFakeSeerr('akey');
  t.teardown(async () => {
    await primary.close();
    await subordinate.close();
  });
  primary.add('movie', 11);
  primary.add('movie', 12);
  const config = {
    stackd: {
      sync: {
        enabled: true,
        poll_interval_seconds: 5,
        retry_delay_seconds: 0,
        primary: { url: primary.url, api_key: 'pkey' },
        subordinates: [{ label: 'a', url: subordinate.url, api_key: 'akey' }],
      },
    },
  };
  const host = await startHost({ plugins: [builtinPlugin('sync')], config });
  t.teardown(() => host.stop());
  const get: Get = (path) => request(host.url, path);
  const { events } = await journaled(
    get,
    'request_sync.cycle.started,request_sync.cycle.finished',
    2,
  );
  t.like(events[0], { kind: 'request_sync.cycle.started', data: { subordinates: 1 } });
  t.like(events[1], {
    kind: 'request_sync.cycle.finished',
    subject: 'request_sync',
    data: { outcome: 'ok', created: 2, failed: 0, error: null },
  });
  t.is(subordinate.requests.length, 2);

  primary.failList = true;
  const failed = await eventually(
    async () => {
      const page = await get('/events?kinds=request_sync.cycle.finished&limit=1000');
      return (page.body as { events: WireEvent[] }).events.find(
        (event) => event.data.outcome === 'failed',
      );
    },
    { what: 'a failed cycle', timeoutMs: 30_000 },
  );
  t.like(failed.data, { created: 0 });
  t.true(typeof failed.data.error === 'string' && failed.data.error.length > 0);
  t.false(JSON.stringify(failed).includes('pkey'), 'no API key');
});

test('a notification delivery that gives up is journaled, without the URL or headers', async (t) => {
  const refusing = await startReceiver([{ status: 404 }]);
  t.teardown(() => refusing.close());
  const host = await startHost({
    plugins: [builtinPlugin('notifications')],
    config: {
      stackd: {
        notifications: {
          enabled: true,
          max_attempts: 2,
          destinations: [
            {
              id: 'hook',
              name: 'The hook',
              provider: 'webhook',
              url: `${refusing.url}/private-path`,
              headers: { authorization: 'Bearer planted-secret-41' },
              minimum_severity: 'info',
              cooldown_sec: 0,
            },
          ],
        },
      },
    },
  });
  t.teardown(() => host.stop());
  const sent = await request(host.url, '/notifications/send', {
    body: { title: 'Hello', body: 'World', severity: 'warning' },
  });
  t.is(sent.status, 200, sent.text);
  const get: Get = (path) => request(host.url, path);
  const { events, text } = await journaled(get, 'notification.delivery.failed', 1);
  t.like(events[0], {
    subject: 'hook',
    data: {
      delivery_id: sent.body.delivery_ids[0],
      destination: 'The hook',
      event_type: 'manual',
      attempts: 1,
    },
  });
  t.false(text.includes('planted-secret-41'));
  t.false(text.includes('private-path'));
});

test('the journal size is in /health?detail=true, and the plain answer is unchanged', async (t) => {
  const host = await startHost({ plugins: [builtinPlugin('supervisor')], config: {} });
  t.teardown(() => host.stop());
  const update = await request(host.url, '/config', {
    body: { updates: { stackd: { journal: { max_events: 5000 } } }, persist: false },
  });
  t.is(update.status, 200, update.text);
  const detail = await eventually(async () => {
    const answer = await request(host.url, '/health?detail=true');
    return answer.body.detail?.journal?.events >= 1 ? answer.body : undefined;
  });
  t.is(detail.status, 'healthy');
  t.like(detail.detail.journal, {
    oldest_cursor: 1,
    max_age_days: 30,
    commit_interval_ms: 10,
  });
  t.is(detail.detail.journal.newest_cursor, detail.detail.journal.events);
  t.true(detail.detail.journal.bytes > 0);
  t.true(detail.detail.journal.commits >= 1);
  t.deepEqual((await request(host.url, '/health')).body, { status: 'healthy' });
});

test('a crash-looping process: each state change is journaled with its exit code', async (t) => {
  const host = await startHost({
    plugins: [builtinPlugin('supervisor')],
    config: {
      stackd: { supervisor: { start_check_ms: 100 } },
      flaky: {
        enabled: true,
        process_name: 'Flaky',
        command: ['node', program('crashes'), '--after', '200'],
        restart_policy: { base_sec: 0.2, max_restarts: 50, window_seconds: 60 },
      },
    },
  });
  t.teardown(() => host.stop());
  const get: Get = (path) => request(host.url, path);
  const crashed = await eventually(
    async () => {
      const page = await get('/events?kinds=process.state&subject=Flaky&limit=1000');
      const events = (page.body as { events: WireEvent[] }).events;
      const crashes = events.filter((event) => event.data.status === 'crashed');
      return crashes.length >= 2 ? events : undefined;
    },
    { what: 'two crashes journaled', timeoutMs: 30_000 },
  );
  const statuses = crashed.map((event) => event.data.status);
  t.true(statuses.includes('running'), statuses.join(','));
  const crash = crashed.find((event) => event.data.status === 'crashed');
  t.is(typeof crash?.data.exit_code, 'number');
  t.true(crashed.every((event) => event.subject === 'Flaky'));
});
