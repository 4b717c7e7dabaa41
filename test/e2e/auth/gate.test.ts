/**
 * The gate core puts in front of protected routes and streams, answered by the auth plugin:
 * `POST /hello/echo` and `/ws/hello` of the hello fixture stand for every protected route/stream.
 */
import test from 'ava';
import { openSocket, request } from '../../helpers/http.js';
import type { RunningHostProcess } from '../../helpers/start-host.js';
import { eventually } from '../../helpers/eventually.js';
import { client, expectStatus, startAuthHost, startWithAdmin } from './auth-host.js';

let host: RunningHostProcess;
let api: ReturnType<typeof client>;
let admin = '';
let adminRefresh = '';

test.before(async () => {
  ({ host, api, admin, adminRefresh } = await startWithAdmin());
});
test.after.always(async () => {
  await host?.stop();
});

async function signIn(username: string): Promise<{ access: string; refresh: string }> {
  const password = `${username}-password`;
  expectStatusOk(await api.post('/api/auth/users', { username, password }, admin));
  const login = await api.post('/api/auth/login', { username, password });
  expectStatusOk(login);
  return { access: login.body.access_token, refresh: login.body.refresh_token };
}

function expectStatusOk(response: { status: number; text: string }): void {
  if (response.status !== 200)
    throw new Error(`expected 200, got ${response.status}: ${response.text}`);
}

test('protected route: 401 without a token, with garbage, with a refresh token; 200 with access', async (t) => {
  const missing = await api.echo();
  expectStatus(t, missing, 401, 'AUTH_REQUIRED');
  t.is(missing.headers.get('www-authenticate'), 'Bearer');
  t.is(missing.body.detail, 'Authentication required');
  const garbage = await api.echo('garbage');
  expectStatus(t, garbage, 401, 'AUTH_INVALID_TOKEN');
  t.is(garbage.body.detail, 'Invalid or expired token');
  expectStatus(t, await api.echo(adminRefresh), 401, 'AUTH_INVALID_TOKEN');
  const ok = await api.echo(admin);
  expectStatus(t, ok, 200);
  t.is(ok.body.principal, 'admin');
});

test('the /api alias of a protected route is gated too', async (t) => {
  const missing = await request(host.url, '/api/hello/echo', { body: { name: 'bob' } });
  expectStatus(t, missing, 401, 'AUTH_REQUIRED');
  const ok = await request(host.url, '/api/hello/echo', { body: { name: 'bob' }, token: admin });
  expectStatus(t, ok, 200);
});

test('a disabled user’s existing token gets 403 at once; re-enabled it works again', async (t) => {
  const frank = await signIn('frank');
  expectStatus(t, await api.echo(frank.access), 200);
  expectStatus(t, await api.put('/api/auth/users/frank', { disabled: true }, admin), 200);
  const refused = await api.echo(frank.access);
  expectStatus(t, refused, 403, 'AUTH_USER_DISABLED');
  expectStatus(t, await api.post('/api/auth/refresh', { refresh_token: frank.refresh }), 403);
  t.deepEqual((await api.post('/api/auth/verify', { token: frank.access })).body, {
    valid: false,
    username: null,
  });
  expectStatus(t, await api.put('/api/auth/users/frank', { disabled: false }, admin), 200);
  expectStatus(t, await api.echo(frank.access), 200);
});

test('a deleted user’s token gets 401 at once, even after the name is created again', async (t) => {
  const gina = await signIn('gina');
  expectStatus(t, await api.del('/api/auth/users/gina', admin), 200);
  expectStatus(t, await api.echo(gina.access), 401, 'AUTH_USER_REVOKED');
  expectStatus(t, await api.post('/api/auth/refresh', { refresh_token: gina.refresh }), 401);
  expectStatus(
    t,
    await api.post('/api/auth/users', { username: 'gina', password: 'new-password' }, admin),
    200,
  );
  expectStatus(t, await api.echo(gina.access), 401, 'AUTH_USER_REVOKED');
});

test('WebSocket: closed with 1008 without a token, with a bad one, with a refresh token', async (t) => {
  for (const query of ['', '?token=garbage', `?token=${adminRefresh}`]) {
    const socket = await openSocket(host.url, `/ws/hello${query}`);
    const closed = await socket.closed;
    t.is(closed.code, 1008, query);
    t.is(socket.messages.length, 0);
  }
  const missing = await (await openSocket(host.url, '/ws/hello')).closed;
  t.is(missing.reason, 'Authentication required');
});

test('WebSocket: opens with a good access token and receives frames', async (t) => {
  const socket = await openSocket(host.url, `/ws/hello?token=${admin}`);
  t.is(socket.socket.readyState, socket.socket.OPEN);
  t.regex(await socket.next(), /on connect/);
  socket.close();
  const alias = await openSocket(host.url, `/api/ws/hello?token=${admin}`);
  t.regex(await alias.next(), /on connect/);
  alias.close();
});

test('WebSocket: a disabled user’s token is refused with 1008', async (t) => {
  const hank = await signIn('hank');
  expectStatus(t, await api.put('/api/auth/users/hank', { disabled: true }, admin), 200);
  const closed = await (await openSocket(host.url, `/ws/hello?token=${hank.access}`)).closed;
  t.is(closed.code, 1008);
});

test('open routes of docs/decisions.md §9 answer without a token while auth is enabled', async (t) => {
  expectStatus(t, await api.get('/health'), 200);
  expectStatus(t, await api.get('/openapi.json'), 200);
  expectStatus(t, await api.get('/docs'), 200);
  expectStatus(t, await api.get('/redoc'), 200);
  expectStatus(t, await api.get('/api/auth/status'), 200);
  expectStatus(t, await api.post('/api/auth/verify', { token: 'x' }), 200);
  expectStatus(
    t,
    await api.post('/api/auth/refresh', { refresh_token: 'x' }),
    401,
    'AUTH_INVALID_REFRESH_TOKEN',
  );
  expectStatus(
    t,
    await api.post('/api/auth/login', { username: 'nobody', password: 'whatever1' }),
    401,
    'AUTH_INVALID_CREDENTIALS',
  );
  expectStatus(
    t,
    await api.post('/api/auth/setup', { username: 'again', password: 'whatever1' }),
    400,
    'AUTH_USERS_EXIST',
  );
  // Everything else needs the token: a host route and the auth plugin's own management routes.
  expectStatus(t, await api.get('/process/capabilities'), 401);
  expectStatus(t, await api.get('/api/auth/users'), 401);
  expectStatus(t, await api.post('/api/auth/enable'), 401);
});

test('the OpenAPI document marks the open auth routes open and the rest bearer-secured', async (t) => {
  const doc = (await api.get('/openapi.json')).body;
  for (const path of [
    '/api/auth/status',
    '/api/auth/login',
    '/api/auth/refresh',
    '/api/auth/verify',
    '/api/auth/setup',
    '/api/auth/logout',
  ]) {
    const operation = Object.values(doc.paths[path] ?? {})[0] as
      { security?: unknown[] } | undefined;
    t.deepEqual(operation?.security, [], path);
  }
  for (const [path, method] of [
    ['/api/auth/users', 'get'],
    ['/api/auth/enable', 'post'],
    ['/api/auth/disable', 'post'],
    ['/api/auth/skip-setup', 'post'],
    ['/api/auth/users/{username}', 'delete'],
  ] as const) {
    const operation = doc.paths[path]?.[method] as { security?: unknown[] } | undefined;
    t.deepEqual(operation?.security, [{ bearerAuth: [] }], path);
  }
});

test('an access token expires after its configured lifetime (1 s); refresh gets a new one', async (t) => {
  const shortLived = await startAuthHost({ access_token_ttl_sec: 1 });
  try {
    const shortApi = client(shortLived);
    const setup = await shortApi.post('/api/auth/setup', {
      username: 'admin',
      password: 'admin-password',
    });
    const access = setup.body.access_token as string;
    const expired = await eventually(
      async () => {
        const response = await shortApi.echo(access);
        return response.status === 401 ? response : undefined;
      },
      { timeoutMs: 5_000, what: 'the access token to expire' },
    );
    t.is(expired.body.code, 'AUTH_INVALID_TOKEN');
    t.is(expired.body.detail, 'Invalid or expired token');
    const refreshed = await shortApi.post('/api/auth/refresh', {
      refresh_token: setup.body.refresh_token,
    });
    expectStatus(t, refreshed, 200);
    const claims = JSON.parse(
      Buffer.from(String(refreshed.body.access_token).split('.')[1] ?? '', 'base64url').toString(),
    );
    t.is(claims.exp - claims.iat, 1);
  } finally {
    await shortLived.stop();
  }
});
