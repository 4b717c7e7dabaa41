/** Notifications end to end: real receivers, the durable queue, test/send, history, secrets. */
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { startHost } from '../../helpers/start-host.js';
import { program } from '../../plugins/supervisor/support/processes.js';
import { startReceiver } from './receivers.js';

const SECRET = 'Bearer planted-webhook-secret-9c1e';

function destination(id: string, url: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    name: id,
    provider: 'webhook',
    url,
    headers: { authorization: SECRET },
    minimum_severity: 'info',
    cooldown_sec: 0,
    ...extra,
  };
}

function startNotificationHost(
  services: Record<string, unknown> = {},
  slice: Record<string, unknown> = {},
) {
  return startHost({
    plugins: [builtinPlugin('supervisor'), builtinPlugin('notifications')],
    config: {
      stackd: {
        supervisor: { start_check_ms: 200 },
        notifications: { enabled: true, retry_base_sec: 0.2, max_attempts: 4, ...slice },
      },
      ...services,
    },
  });
}

test('config: secrets write-only, blank keeps the saved url, unknown service 400', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const host = await startNotificationHost({
    web: { enabled: true, process_name: 'Web', command: ['node', program('long-running')] },
  });
  t.teardown(() => host.stop());
  const saved = await request(host.url, '/notifications/config', {
    body: {
      config: { destinations: [destination('main', receiver.url, { service_names: ['Web'] })] },
    },
  });
  t.is(saved.status, 200, saved.text);
  t.like(saved.body.destinations[0], { url: '', url_configured: true, headers_configured: true });
  t.false(saved.text.includes(SECRET));
  const again = await request(host.url, '/notifications/config', {
    body: { config: { destinations: [{ ...destination('main', ''), headers: {} }] } },
  });
  t.like(
    again.body.destinations[0],
    { url_configured: true, headers_configured: true },
    'blank keeps',
  );
  const unknown = await request(host.url, '/notifications/config', {
    body: {
      config: { destinations: [destination('x', receiver.url, { service_names: ['Nobody'] })] },
    },
  });
  t.is(unknown.status, 400);
  t.regex(unknown.body.detail, /Nobody/);
  const badUrl = await request(host.url, '/notifications/config', {
    body: { config: { destinations: [destination('y', 'ftp://example.com/x')] } },
  });
  t.is(badUrl.status, 422);
  const events = await request(host.url, '/notifications/events');
  t.true(events.body.event_types.includes('service.stopped.unexpectedly'));
  t.deepEqual(events.body.severities, ['info', 'success', 'warning', 'critical']);
  const test1 = await request(host.url, '/notifications/test', {
    body: { destination_id: 'main' },
  });
  t.is(test1.status, 200, test1.text);
  t.is(test1.body.status, 'completed');
  t.is(receiver.received.at(-1)?.headers.authorization, SECRET, 'headers reach the receiver');
  const history = await request(host.url, '/notifications/history');
  t.false(history.text.includes(SECRET));
  t.false(history.text.includes(receiver.url));
  t.false(host.output().includes(SECRET));
});

test('retries: a 500 then success, a 429 with Retry-After; a slow receiver blocks nobody', async (t) => {
  const flaky = await startReceiver([{ status: 500 }]);
  const limited = await startReceiver([{ status: 429, headers: { 'retry-after': '1' } }]);
  const slow = await startReceiver([], { delayMs: 4_000 });
  const wrong = await startReceiver([{ status: 404 }]);
  t.teardown(async () => {
    for (const receiver of [flaky, limited, slow, wrong]) await receiver.close();
  });
  const host = await startNotificationHost(
    {},
    {
      destinations: [
        destination('flaky', flaky.url),
        destination('limited', limited.url),
        destination('slow', slow.url),
        destination('wrong', wrong.url),
      ],
    },
  );
  t.teardown(() => host.stop());
  const sent = await request(host.url, '/notifications/send', {
    body: { title: 'Hello', body: 'World', severity: 'warning' },
  });
  t.is(sent.status, 200, sent.text);
  t.is(sent.body.delivery_ids.length, 4);
  const byDestination = async () => {
    const items = (await request(host.url, '/notifications/history')).body.items as Array<{
      destination_id: string;
      status: string;
      attempts: number;
    }>;
    return Object.fromEntries(items.map((item) => [item.destination_id, item]));
  };
  // The fast ones finish while the slow receiver is still holding its request.
  await eventually(async () => (await byDestination()).flaky?.status === 'completed', {
    what: 'flaky delivered',
  });
  t.is(slow.received.length, 1);
  t.true((await byDestination()).slow?.status !== 'completed', 'the slow one is still in flight');
  const done = await eventually(
    async () => {
      const rows = await byDestination();
      return rows.limited?.status === 'completed' && rows.slow?.status === 'completed'
        ? rows
        : undefined;
    },
    { what: 'all delivered', timeoutMs: 20_000 },
  );
  t.is(done.flaky?.attempts, 2);
  t.is(done.limited?.attempts, 2);
  t.true(
    (limited.received[1]?.at ?? 0) - (limited.received[0]?.at ?? 0) >= 900,
    'Retry-After honoured',
  );
  t.like(done.wrong, { status: 'failed', attempts: 1 }, 'a 404 is not retried');
  const payload = JSON.parse(flaky.received[0]?.body ?? '{}');
  t.like(payload, { source: 'stackd', event_type: 'manual', severity: 'warning', title: 'Hello' });
  const cleared = await request(host.url, '/notifications/history', { method: 'DELETE' });
  t.is(cleared.body.deleted, 4);
});

test('a crash-looping process: one notification per cooldown, the rest suppressed', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const host = await startNotificationHost(
    {
      flaky: {
        enabled: true,
        process_name: 'Flaky',
        command: ['node', program('crashes'), '--after', '300'],
        restart_policy: { base_sec: 0.2, max_restarts: 50, window_seconds: 60 },
      },
    },
    {
      destinations: [
        destination('ops', receiver.url, {
          cooldown_sec: 600,
          event_types: ['service.stopped.unexpectedly'],
        }),
      ],
    },
  );
  t.teardown(() => host.stop());
  const rows = await eventually(
    async () => {
      const items = (
        await request(host.url, '/notifications/history?event_type=service.stopped.unexpectedly')
      ).body.items as Array<{ status: string }>;
      return items.length >= 3 ? items : undefined;
    },
    { what: 'three crashes', timeoutMs: 20_000 },
  );
  t.is(rows.filter((row) => row.status === 'suppressed').length, rows.length - 1);
  await eventually(() => receiver.received.length === 1);
  t.like(JSON.parse(receiver.received[0]?.body ?? '{}'), {
    service_name: 'Flaky',
    severity: 'critical',
  });
});

test('a CPU threshold raised by a busy process is sent once', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const host = await startHost({
    plugins: [
      builtinPlugin('supervisor'),
      builtinPlugin('metrics'),
      builtinPlugin('notifications'),
    ],
    config: {
      stackd: {
        supervisor: { start_check_ms: 200 },
        metrics: { interval_ms: 500 },
        notifications: {
          enabled: true,
          monitor_interval_sec: 1,
          thresholds: { cpu_percent: 100, duration_sec: 0 },
          destinations: [destination('ops', receiver.url, { event_types: ['resource.cpu.high'] })],
        },
      },
      burner: { enabled: false, process_name: 'Burner', command: ['node', program('burns-cpu')] },
    },
  });
  t.teardown(() => host.stop());
  // The monitor's first check with a snapshot is its baseline (it sends nothing for what is
  // already active): wait for a CPU figure and two monitor periods, then lower the threshold.
  await eventually(
    async () => typeof (await request(host.url, '/metrics')).body?.system?.cpu_percent === 'number',
    { what: 'a CPU figure', timeoutMs: 20_000 },
  );
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const config = (await request(host.url, '/notifications/config')).body;
  await request(host.url, '/notifications/config', {
    body: { config: { thresholds: { ...config.thresholds, cpu_percent: 20 } } },
  });
  await request(host.url, '/process/start-service', { body: { process_name: 'Burner' } });
  await eventually(() => receiver.received.length >= 1, {
    what: 'the cpu notification',
    timeoutMs: 20_000,
  });
  t.like(JSON.parse(receiver.received[0]?.body ?? '{}'), {
    event_type: 'resource.cpu.high',
    severity: 'warning',
  });
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  t.is(
    receiver.received.filter((item) => item.body.includes('resource.cpu.high')).length,
    1,
    'once per activation',
  );
});

test('deliveries in flight survive a host restart and are sent once', async (t) => {
  const receiver = await startReceiver([{ status: 503 }, { status: 503 }]);
  t.teardown(() => receiver.close());
  const first = await startNotificationHost(
    {},
    {
      retry_base_sec: 2,
      destinations: [destination('ops', receiver.url)],
    },
  );
  const sent = await request(first.url, '/notifications/send', {
    body: { title: 'Persist me', body: 'x', severity: 'info' },
  });
  await eventually(() => receiver.received.length >= 1);
  await first.stop('SIGKILL');
  const second = await startHost({
    plugins: [builtinPlugin('supervisor'), builtinPlugin('notifications')],
    configPath: first.configPath as string,
    dataDir: first.dataDir,
  });
  t.teardown(() => second.stop());
  const row = await eventually(
    async () => {
      const items = (await request(second.url, '/notifications/history')).body.items as Array<{
        id: string;
        status: string;
      }>;
      const found = items.find((item) => item.id === sent.body.delivery_ids[0]);
      return found?.status === 'completed' ? found : undefined;
    },
    { what: 'delivered after the restart', timeoutMs: 20_000 },
  );
  t.truthy(row);
  t.is(
    receiver.received.filter((item) => item.body.includes('Persist me') && item.at > 0).length,
    3,
    '2 refused + 1 accepted',
  );
});

test('a boot with a process that fails to start is a startup.degraded notification', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const host = await startNotificationHost(
    {
      broken: {
        enabled: true,
        process_name: 'Broken',
        // A command that cannot be spawned fails however slow the machine is; a quick crash
        // could outlast the start check under load and count as started.
        command: ['/nonexistent/stackd-test-binary'],
        auto_restart: false,
      },
      fine: { enabled: true, process_name: 'Fine', command: ['node', program('long-running')] },
    },
    {
      destinations: [
        destination('ops', receiver.url, { event_types: ['stackd.startup.degraded'] }),
      ],
    },
  );
  t.teardown(() => host.stop());
  await eventually(() => receiver.received.length === 1, { what: 'the degraded notification' });
  const payload = JSON.parse(receiver.received[0]?.body ?? '{}');
  t.like(payload, { event_type: 'stackd.startup.degraded', severity: 'critical' });
  t.regex(payload.body, /Broken/);
});
