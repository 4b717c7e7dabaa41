/**
 * The authentication mode rules (docs/decisions.md §8), row by row, against the real host. One host walks the states
 * in order (fresh → skipped → enabled → disabled → enabled …), so the tests are serial.
 */
import test from 'ava';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { RunningHostProcess } from '../../helpers/start-host.js';
import { client, expectStatus, startAuthHost } from './auth-host.js';

let host: RunningHostProcess;
let api: ReturnType<typeof client>;
let adminToken = '';

test.before(async () => {
  host = await startAuthHost();
  api = client(host);
});
test.after.always(async () => {
  await host?.stop();
});

interface Status {
  enabled: boolean;
  has_users: boolean;
  setup_skipped: boolean;
}
const status = async (): Promise<Status> => (await api.get<Status>('/api/auth/status')).body;

test.serial('fresh install: status is served at /api/auth and /auth, all false', async (t) => {
  for (const path of ['/api/auth/status', '/auth/status', '/api/auth/status/']) {
    const response = await api.get(path);
    expectStatus(t, response, 200);
    t.deepEqual(response.body, { enabled: false, has_users: false, setup_skipped: false }, path);
  }
});

test.serial('disabled | enable | no user exists → 400, unchanged', async (t) => {
  const response = await api.post('/api/auth/enable');
  expectStatus(t, response, 400, 'AUTH_NO_USERS');
  t.deepEqual(await status(), { enabled: false, has_users: false, setup_skipped: false });
});

test.serial('any (no users) | skip-setup → authentication disabled, setup skipped', async (t) => {
  const response = await api.post('/auth/skip-setup');
  expectStatus(t, response, 200);
  t.deepEqual(response.body, { message: 'Authentication setup skipped successfully' });
  t.deepEqual(await status(), { enabled: false, has_users: false, setup_skipped: true });
});

test.serial('no users | setup → enabled, first user created, tokens returned', async (t) => {
  const response = await api.post('/api/auth/setup', {
    username: 'admin',
    password: 'admin-password',
  });
  expectStatus(t, response, 200);
  t.deepEqual(Object.keys(response.body).sort(), [
    'access_token',
    'device_token',
    'message',
    'refresh_token',
    'token_type',
  ]);
  t.is(response.body.token_type, 'bearer');
  t.is(typeof response.body.message, 'string');
  t.deepEqual(await status(), { enabled: true, has_users: true, setup_skipped: false });

  const access = decodeJwt(response.body.access_token);
  const refresh = decodeJwt(response.body.refresh_token);
  t.is(decodeProtectedHeader(response.body.access_token).alg, 'HS256');
  t.like(access, { sub: 'admin', type: 'access' });
  t.like(refresh, { sub: 'admin', type: 'refresh' });
  t.is(Number(access.exp) - Number(access.iat), 60 * 60);
  t.is(Number(refresh.exp) - Number(refresh.iat), 30 * 24 * 60 * 60);
  t.true(Math.abs(Number(access.iat) - Date.now() / 1000) < 60);
  t.regex(String(access.jti), /^[0-9a-f-]{36}$/);
  t.not(access.jti, refresh.jti);
  adminToken = response.body.access_token;
  expectStatus(t, await api.echo(adminToken), 200);
});

test.serial('users exist | setup → 400, unchanged', async (t) => {
  for (const path of ['/api/auth/setup', '/auth/setup']) {
    const response = await api.post(path, { username: 'intruder', password: 'intruder-pass' });
    expectStatus(t, response, 400, 'AUTH_USERS_EXIST');
  }
  t.deepEqual(await status(), { enabled: true, has_users: true, setup_skipped: false });
  const users = await api.get('/api/auth/users', adminToken);
  t.deepEqual(users.body, { users: [{ username: 'admin', disabled: false }] });
});

test.serial('enabled | disable → disabled; needs a token; all endpoints open', async (t) => {
  expectStatus(t, await api.post('/api/auth/disable'), 401, 'AUTH_REQUIRED');
  t.true((await status()).enabled);
  const response = await api.post('/api/auth/disable', undefined, adminToken);
  expectStatus(t, response, 200);
  t.deepEqual(response.body, { message: 'Authentication disabled successfully' });
  t.deepEqual(await status(), { enabled: false, has_users: true, setup_skipped: false });
  const echo = await api.echo();
  expectStatus(t, echo, 200);
  t.is(echo.body.principal, null);
  expectStatus(t, await api.get('/api/auth/users'), 200);
  // Open even with a garbage token: it is not looked at.
  expectStatus(t, await api.echo('garbage'), 200);
});

test.serial(
  'disabled | enable | at least one user exists → enabled, message returned',
  async (t) => {
    const response = await api.post('/auth/enable');
    expectStatus(t, response, 200);
    t.deepEqual(response.body, { message: 'Authentication enabled successfully' });
    t.deepEqual(await status(), { enabled: true, has_users: true, setup_skipped: false });
    expectStatus(t, await api.echo(), 401, 'AUTH_REQUIRED');
    expectStatus(t, await api.echo(adminToken), 200);
    // Enabling again needs a token now, and keeps it enabled.
    expectStatus(t, await api.post('/api/auth/enable'), 401);
    expectStatus(t, await api.post('/api/auth/enable', undefined, adminToken), 200);
  },
);

test.serial(
  'any (enabled, users) | skip-setup needs a token (401 anonymous) → disabled, skipped; open',
  async (t) => {
    const anonymous = await api.post('/api/auth/skip-setup');
    expectStatus(t, anonymous, 401, 'AUTH_REQUIRED');
    t.like(await status(), { enabled: true }, 'an anonymous caller cannot turn auth off');
    const response = await api.post('/api/auth/skip-setup', undefined, adminToken);
    expectStatus(t, response, 200);
    t.deepEqual(await status(), { enabled: false, has_users: true, setup_skipped: true });
    expectStatus(t, await api.echo(), 200);
  },
);
