import test from 'ava';
import { request } from '../../helpers/http.js';
import { eventually } from '../../helpers/eventually.js';
import { fixtureBlock, program, startSupervisor } from './support.js';

test('the process list and detail carry every contract field; the API itself is running', async (t) => {
  const host = await startSupervisor({
    web: fixtureBlock('Web', program('long-running'), [], {
      release_version: 'v2.1.0',
      repo_owner: 'acme',
      repo_name: 'web',
      api_key: 'super-secret-key',
    }),
    workers: {
      instances: {
        Primary: fixtureBlock('Worker Primary', program('long-running'), [], { enabled: false }),
      },
    },
  });
  t.teardown(() => host.stop());
  await eventually(
    async () =>
      (await request(host.url, '/process/service-status?process_name=Web')).body.status ===
      'running',
    { what: 'Web running' },
  );
  const list = await request(host.url, '/process/processes');
  t.is(list.status, 200);
  // The unchanged list is served again from its cached serialization (bytes from the third on).
  // (uptime and usage move on their own: the list is rebuilt once a second at most, so a repeat
  // may come from the next build; the rest of it must be the same.)
  const stable = (text: string): string =>
    text.replace(/"(uptime_s|cpu_percent|rss_bytes)":[0-9.e+-]+|null/g, '"$1":x');
  for (let again = 0; again < 3; again += 1) {
    const repeated = await request(host.url, '/process/processes');
    t.is(stable(repeated.text), stable(list.text));
    t.is(repeated.headers.get('content-type'), 'application/json; charset=utf-8');
  }
  const [api, web, worker] = list.body.processes;
  t.like(api, {
    name: 'stackd api_service',
    process_name: 'stackd API',
    status: 'running',
    config_key: 'stackd_api_service',
    key: 'api_service',
  });
  t.is(api.pid, host.child.pid);
  t.like(web, {
    name: 'web',
    process_name: 'Web',
    enabled: true,
    version: 'v2.1.0',
    key: 'web',
    config_key: 'web',
    repo_url: 'https://github.com/acme/web',
    sponsorship_url: '',
    status: 'running',
  });
  t.is(typeof web.pid, 'number');
  t.false(JSON.stringify(web.config).includes('super-secret-key'));
  t.like(worker, {
    name: 'workers instances Primary',
    key: 'Primary',
    config_key: 'workers',
    enabled: false,
    status: 'stopped',
    pid: null,
  });

  const detail = await request(host.url, '/process?process_name=Web');
  t.is(detail.status, 200);
  t.like(detail.body, {
    process_name: 'Web',
    version: 'v2.1.0',
    config_key: 'web',
    parallel_groups: [],
  });
  t.is(
    (await request(host.url, '/api/process?process_name=web&scope=all')).status,
    200,
    'normalized name, /api alias',
  );
  const badScope = await request(host.url, '/process?process_name=Web&scope=everything');
  t.is(badScope.status, 422);
  t.is(badScope.body.field, 'scope');
  const status = await request(host.url, '/process/service-status?process_name=Web');
  t.like(status.body, { process_name: 'Web', status: 'running', restarts: 0 });
  t.true(status.body.uptime_s >= 0);
  t.is(
    (await request(host.url, '/process/service-status')).status,
    422,
    'process_name is required',
  );
});

test('an unknown process name is a 404 everywhere', async (t) => {
  const host = await startSupervisor({});
  t.teardown(() => host.stop());
  const body = { process_name: 'Nope' };
  const answers = await Promise.all([
    request(host.url, '/process?process_name=Nope'),
    request(host.url, '/process/service-status?process_name=Nope'),
    request(host.url, '/process/start-service', { body }),
    request(host.url, '/process/stop-service', { body }),
    request(host.url, '/process/restart-service', { body }),
    request(host.url, '/process/start', { body }),
    request(host.url, '/process/stop', { body }),
    request(host.url, '/process/restart', { body }),
    request(host.url, '/logs?process_name=Nope'),
  ]);
  for (const answer of answers) {
    t.is(answer.status, 404);
    t.is(answer.body.code, 'PROCESS_NOT_FOUND');
  }
});

test('the API entry: start and restart answer running, stop is refused', async (t) => {
  const host = await startSupervisor({});
  t.teardown(() => host.stop());
  const body = { process_name: 'stackd API' };
  const started = await request(host.url, '/process/start-service', { body });
  t.like(started, {
    status: 200,
    body: { status: 'running', process_name: 'stackd API', pid: host.child.pid },
  });
  t.like((await request(host.url, '/process/restart-service', { body })).body, {
    status: 'running',
  });
  const stop = await request(host.url, '/process/stop-service', { body });
  t.is(stop.status, 400);
  t.is(stop.body.code, 'PROCESS_SELF_STOP');
});

test('update notices are "none" in the shape the DUMB dashboard reads', async (t) => {
  const host = await startSupervisor({});
  t.teardown(() => host.stop());
  const notices = await request(host.url, '/api/process/update-notices?scope=project');
  t.is(notices.status, 200);
  t.deepEqual(notices.body, { scope: 'project', available: [], info: [], applied: [] });
});

test('service-status with include_health adds the health fields the dashboard reads', async (t) => {
  const host = await startSupervisor({
    idle: fixtureBlock('Idle', program('long-running')),
  });
  t.teardown(() => host.stop());
  await eventually(async () => {
    const body = (await request(host.url, '/process/service-status?process_name=Idle')).body;
    return body.status === 'running';
  });
  const plain = await request(host.url, '/process/service-status?process_name=Idle');
  t.is(plain.body.health_status, undefined, 'only when asked');
  const health = await request(
    host.url,
    '/process/service-status?process_name=Idle&include_health=true',
  );
  t.like(health.body, { healthy: true, health_status: 'healthy', health_reason: null });
  t.is(typeof health.body.health_details, 'object');
});
