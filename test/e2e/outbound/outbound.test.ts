/**
 * The outbound policy through every plugin that calls out (AI, notifications, request sync) on
 * the real host: forbidden URLs refused at write time with 422 naming the field, redirects to
 * forbidden addresses refused at call time, and one error text whether a port is closed,
 * answers with an error status or is refused.
 */
import test from 'ava';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';

const UNREACHABLE = 'could not reach the provider';
let host: RunningHostProcess;
const servers: Server[] = [];
let redirectToMetadata = '';
let redirectToStackd = '';
let notFound = '';
let closedPort = '';

async function serve(handler: (res: ServerResponse) => void): Promise<string> {
  const server = createServer((_req, res) => handler(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test.before(async () => {
  host = await startHost({
    plugins: [
      builtinPlugin('supervisor'),
      builtinPlugin('ai'),
      builtinPlugin('notifications'),
      builtinPlugin('sync'),
    ],
    config: { stackd: { notifications: { enabled: true } } },
  });
  redirectToMetadata = await serve((res) => {
    res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
  });
  redirectToStackd = await serve((res) => {
    res
      .writeHead(302, { location: `http://[::ffff:127.0.0.1]:${host.port}/api/auth/disable` })
      .end();
  });
  notFound = await serve((res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('nope'));
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPort = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
});

test.after.always(async () => {
  await host?.stop();
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

const forbidden = (): string[] => [
  'http://169.254.169.254/latest/meta-data/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://0251.0376.0251.0376/',
  'http://[fe80::1]/',
  'http://0.0.0.0/',
  `http://127.0.0.1:${host.port}/api/auth/disable`,
  `http://localhost:${host.port}/api/auth/disable`,
];

test.serial(
  'AI settings, profiles, /ai/test and /ai/models refuse forbidden base URLs (422)',
  async (t) => {
    for (const url of forbidden()) {
      const settings = await request(host.url, '/ai/settings', {
        method: 'PUT',
        body: { base_url: url },
      });
      t.like(settings, { status: 422, body: { field: 'base_url', code: 'URL_FORBIDDEN' } }, url);
      const profile = await request(host.url, '/ai/profiles', {
        body: { name: 'x', provider: 'chat_compatible', base_url: url, model: 'm' },
      });
      t.like(profile, { status: 422, body: { field: 'base_url' } }, url);
      for (const path of ['/ai/test', '/ai/models']) {
        const answer = await request(host.url, path, {
          body: { provider: 'chat_compatible', base_url: url, model: 'm' },
        });
        t.like(answer, { status: 422, body: { field: 'base_url' } }, `${path} ${url}`);
      }
    }
  },
);

test.serial(
  'AI calls: a redirect to a forbidden address, a closed port and a 404 read the same',
  async (t) => {
    const bodies = [];
    for (const base of [redirectToMetadata, redirectToStackd, closedPort, notFound])
      for (const path of ['/ai/test', '/ai/models']) {
        const answer = await request(host.url, path, {
          body: { provider: 'chat_compatible', base_url: `${base}/v1`, model: 'm', timeout_sec: 5 },
        });
        t.is(answer.status, 502, `${path} ${base}: ${answer.text}`);
        bodies.push(answer.body);
      }
    for (const body of bodies)
      t.deepEqual(body, { detail: UNREACHABLE, code: 'AI_PROVIDER_UNREACHABLE' });
  },
);

test.serial(
  'notifications: forbidden webhook URLs are 422; failed sends record one error text',
  async (t) => {
    for (const url of forbidden()) {
      const saved = await request(host.url, '/notifications/config', {
        body: { config: { destinations: [{ id: 'x', name: 'x', provider: 'webhook', url }] } },
      });
      t.like(saved, { status: 422, body: { field: 'config.destinations[0].url' } }, url);
    }
    const targets = {
      meta: redirectToMetadata,
      own: redirectToStackd,
      closed: closedPort,
      missing: notFound,
    };
    const saved = await request(host.url, '/notifications/config', {
      body: {
        config: {
          enabled: true,
          destinations: Object.entries(targets).map(([id, url]) => ({
            id,
            name: id,
            provider: 'webhook',
            url,
          })),
        },
      },
    });
    t.is(saved.status, 200, saved.text);
    for (const id of Object.keys(targets)) {
      const sent = await request(host.url, '/notifications/test', { body: { destination_id: id } });
      t.is(sent.status, 200, sent.text);
      t.is(sent.body.error, UNREACHABLE, `${id}: ${sent.text}`);
    }
  },
);

test.serial('request sync: forbidden URLs are 422 in /config and /request-sync/test', async (t) => {
  for (const url of forbidden()) {
    const probe = await request(host.url, '/request-sync/test', { body: { url, api_key: 'k' } });
    t.like(probe, { status: 422, body: { field: 'url' } }, url);
    const config = await request(host.url, '/config', {
      body: { updates: { stackd: { sync: { primary: { url, api_key: 'k' } } } }, persist: false },
    });
    t.like(config, { status: 422, body: { field: 'stackd.sync.primary.url' } }, url);
  }
  const details = [];
  for (const base of [redirectToMetadata, redirectToStackd, closedPort, notFound]) {
    const probe = await request(host.url, '/request-sync/test', {
      body: { url: base, api_key: 'k' },
    });
    t.is(probe.status, 200, probe.text);
    details.push(probe.body);
  }
  for (const body of details) t.deepEqual(body, { ok: false, detail: UNREACHABLE });
});

test.serial(
  'stackd.outbound: invalid values are 422 naming the field; narrowing applies live',
  async (t) => {
    const bad = await request(host.url, '/config', {
      body: { updates: { stackd: { outbound: { deny: ['10.0.0.0/40'] } } }, persist: false },
    });
    t.like(bad, { status: 422, body: { field: 'stackd.outbound.deny' } });
    const schema = await request(host.url, '/config/schema');
    t.truthy(
      schema.body.properties?.stackd?.properties?.outbound?.properties?.allow_private,
      schema.text.slice(0, 300),
    );
    const before = await request(host.url, '/request-sync/test', {
      body: { url: notFound, api_key: 'k' },
    });
    t.is(before.status, 200);
    const narrowed = await request(host.url, '/config', {
      body: { updates: { stackd: { outbound: { allow_loopback: false } } }, persist: false },
    });
    t.is(narrowed.status, 200, narrowed.text);
    const after = await request(host.url, '/request-sync/test', {
      body: { url: notFound, api_key: 'k' },
    });
    t.like(after, { status: 422, body: { field: 'url', code: 'URL_FORBIDDEN' } });
  },
);
