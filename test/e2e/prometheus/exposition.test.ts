import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import {
  enableAuthWithScrapeToken,
  fleetServices,
  run,
  sampleValue,
  scrape,
  startFleetHost,
} from './support.js';

const PROCESS_FAMILIES = [
  'stackd_process_up',
  'stackd_process_state',
  'stackd_process_restarts_total',
  'stackd_process_last_exit_code',
  'stackd_process_start_time_seconds',
  'stackd_process_cpu_seconds_total',
  'stackd_process_resident_memory_bytes',
  'stackd_process_open_fds',
  'stackd_process_log_bytes_total',
  'stackd_process_info',
];
const HOST_FAMILIES = [
  'stackd_build_info',
  'stackd_config_generation',
  'stackd_config_last_reload_timestamp_seconds',
  'stackd_http_requests_total',
  'stackd_http_request_duration_seconds',
  'stackd_websocket_clients',
  'stackd_plugins_loaded',
  'stackd_notification_deliveries_total',
  'stackd_sync_cycles_total',
  'stackd_symlink_jobs_total',
  'stackd_symlink_broken_links_found_total',
  'stackd_ai_provider_calls_total',
];

test('a host with every plugin: promtool accepts the exposition; negotiation, OpenMetrics, scrape token scope, monotonic counters', async (t) => {
  const host = await startFleetHost(fleetServices('solo'));
  t.teardown(() => host.stop());
  const capabilities = await request(host.url, '/process/capabilities');
  t.is(capabilities.body.prometheus_metrics, true);
  // The OpenAPI document names every media type the two routes answer, JSON next to the texts.
  const openapi = await request(host.url, '/openapi.json');
  const typesOf = (path: string): string[] =>
    Object.keys(openapi.body.paths[path].get.responses['200'].content).sort();
  t.deepEqual(typesOf('/metrics'), [
    'application/json',
    'application/openmetrics-text; version=1.0.0',
    'text/plain; version=0.0.4',
  ]);
  t.deepEqual(typesOf('/metrics/prometheus'), [
    'application/openmetrics-text; version=1.0.0',
    'text/plain; version=0.0.4',
  ]);

  // Wait for the crash-looper's first restart so every per-process family has samples.
  const first = await eventually(
    async () => {
      const body = (await scrape(host)).text;
      return (sampleValue(body, 'stackd_process_restarts_total', 'process="solo-looper"') ?? 0) >= 1
        ? body
        : undefined;
    },
    { what: 'a restart of solo-looper', timeoutMs: 20_000 },
  );
  const checked = await run('promtool', ['check', 'metrics'], first);
  t.is(checked.code, 0, checked.output);
  for (const family of [...PROCESS_FAMILIES, ...HOST_FAMILIES])
    t.true(first.includes(`# TYPE ${family} `), `${family} is exposed`);
  for (const line of first.split('\n').filter((l) => l !== '' && !l.startsWith('#')))
    t.true(line.startsWith('stackd_'), line);
  t.is(sampleValue(first, 'stackd_process_up', 'process="solo-steady-1"'), 1);
  t.is(sampleValue(first, 'stackd_process_state', 'process="solo-steady-1",state="running"'), 1);
  t.true(
    (sampleValue(first, 'stackd_process_resident_memory_bytes', 'process="solo-steady-1"') ?? 0) >
      1e6,
  );
  t.true((sampleValue(first, 'stackd_process_open_fds', 'process="solo-steady-1"') ?? 0) > 0);
  t.true((sampleValue(first, 'stackd_process_log_bytes_total', 'process="solo-looper"') ?? 0) > 0);
  t.regex(
    first,
    /stackd_http_requests_total\{method="GET",route="\/metrics\/prometheus",status="200"\} \d+/,
  );

  // Counters never go down between scrapes (the CPU of a restarted tree excepted).
  const second = (await scrape(host)).text;
  for (const line of second.split('\n')) {
    const match = /^(stackd_[a-z_]+_total)(\{[^}]*\})? (\S+)$/.exec(line);
    if (match === null || match[1] === 'stackd_process_cpu_seconds_total') continue;
    const before = sampleValue(first, match[1] ?? '', match[2] ?? '');
    if (before !== undefined) t.true(Number(match[3]) >= before, line);
  }

  // GET /metrics: JSON for the dashboard, the exposition for Prometheus's Accept header.
  const json = await request(host.url, '/metrics');
  t.true((json.headers.get('content-type') ?? '').startsWith('application/json'));
  const axiosLike = await scrape(host, {
    path: '/metrics',
    accept: 'application/json, text/plain, */*',
  });
  t.true(axiosLike.contentType.startsWith('application/json'));
  const prometheusAccept =
    'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';
  const openMetrics = await scrape(host, { path: '/metrics', accept: prometheusAccept });
  t.true(openMetrics.contentType.startsWith('application/openmetrics-text; version=1.0.0'));
  t.true(openMetrics.text.endsWith('# EOF\n'));
  t.regex(
    openMetrics.text,
    /# TYPE stackd_process_restarts counter\nstackd_process_restarts_total\{/,
  );
  const plain = await scrape(host, { path: '/metrics', accept: 'text/plain' });
  t.true(plain.contentType.startsWith('text/plain; version=0.0.4'));
  // After an OpenMetrics render the text format still names counters with _total.
  t.regex(plain.text, /# TYPE stackd_process_restarts_total counter/);
  t.is((await run('promtool', ['check', 'metrics'], plain.text)).code, 0);

  // Authentication on: a scrape token reads the exposition and nothing else.
  const { admin, scrape: token, id } = await enableAuthWithScrapeToken(host);
  t.is((await scrape(host)).status, 401);
  t.is((await scrape(host, { token })).status, 200);
  const viaMetrics = await scrape(host, { token, path: '/metrics' });
  t.is(viaMetrics.status, 200);
  t.true(viaMetrics.contentType.startsWith('text/plain; version=0.0.4'));
  const stop = await request(host.url, '/process/stop-service', {
    body: { process_name: 'solo-steady-1' },
    token,
  });
  t.true(stop.status === 401 || stop.status === 403, `stop-service: ${stop.status}`);
  const config = await request(host.url, '/config', { body: {}, token });
  t.true(config.status === 401 || config.status === 403, `config: ${config.status}`);
  t.is((await request(host.url, '/process/processes', { token })).status, 403);
  t.is(
    (await request(host.url, '/api/auth/scrape-tokens', { body: { name: 'x' }, token })).status,
    403,
  );
  t.is((await request(host.url, '/health', { token })).status, 403);
  t.is((await scrape(host, { token: `${token.slice(0, -2)}AA` })).status, 401);
  t.is((await scrape(host, { token: admin })).status, 200, 'a user token reads it too');
  const listed = await request(host.url, '/api/auth/scrape-tokens', { token: admin });
  t.is(listed.body.tokens.length, 1);
  t.is(listed.body.tokens[0].id, id);
  t.false(listed.text.includes(token.slice(-20)), 'the token text is never listed');
  t.is(
    (await request(host.url, `/api/auth/scrape-tokens/${id}`, { method: 'DELETE', token: admin }))
      .status,
    200,
  );
  t.is((await scrape(host, { token })).status, 401);
  t.is(
    (
      await request(host.url, '/process/service-status?process_name=solo-steady-1', {
        token: admin,
      })
    ).body.status,
    'running',
  );
});
