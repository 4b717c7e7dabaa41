/**
 * Auth hardening against the real host: client addresses behind trusted proxies (docs/decisions.md §25),
 * refresh rotation and logout (#28).
 */
import test from 'ava';
import { request } from '../../helpers/http.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';
import { AUTH_PLUGIN, HELLO_PLUGIN, client, expectStatus } from './auth-host.js';

async function hostWith(
  apiService: Record<string, unknown>,
  auth: Record<string, unknown> = {},
): Promise<RunningHostProcess> {
  const host = await startHost({
    plugins: [AUTH_PLUGIN, HELLO_PLUGIN],
    config: { stackd: { api_service: apiService, auth: { scrypt_cost_log2: 14, ...auth } } },
  });
  const setup = await client(host).post('/api/auth/setup', {
    username: 'admin',
    password: 'admin-password',
  });
  if (setup.status !== 200) throw new Error(setup.text);
  return host;
}

function loginFrom(host: RunningHostProcess, forwardedFor: string, password: string) {
  return request(host.url, '/api/auth/login', {
    body: { username: 'admin', password },
    headers: { 'x-forwarded-for': forwardedFor },
  });
}

test('behind a trusted proxy, a guesser locks only its own address', async (t) => {
  const host = await hostWith(
    { trusted_proxies: ['127.0.0.1', '::1'] },
    { login_rate_limit: { max_failures_per_user: 3, lockout_base_sec: 60 } },
  );
  t.teardown(() => host.stop());
  for (let attempt = 0; attempt < 3; attempt += 1)
    expectStatus(t, await loginFrom(host, '203.0.113.7', 'wrong-password'), 401);
  expectStatus(t, await loginFrom(host, '203.0.113.7', 'admin-password'), 429, 'AUTH_RATE_LIMITED');
  // The owner, from another address through the same proxy: not locked out.
  expectStatus(t, await loginFrom(host, '198.51.100.9', 'admin-password'), 200);
  // The right-most untrusted hop counts: a forged left part does not escape the lock.
  expectStatus(t, await loginFrom(host, '198.51.100.9, 203.0.113.7', 'admin-password'), 429);
});

test('without trusted proxies, X-Forwarded-For is ignored (no escaping a lock by forging it)', async (t) => {
  const host = await hostWith({}, { login_rate_limit: { max_failures_per_user: 2 } });
  t.teardown(() => host.stop());
  for (let attempt = 0; attempt < 2; attempt += 1)
    expectStatus(t, await loginFrom(host, `203.0.113.${attempt}`, 'wrong-password'), 401);
  expectStatus(t, await loginFrom(host, '198.51.100.9', 'admin-password'), 429);
});

test('a trusted_proxies entry that is no address or CIDR stops the boot, naming it', async (t) => {
  const error = await t.throwsAsync(
    startHost({
      plugins: [HELLO_PLUGIN],
      config: { stackd: { api_service: { trusted_proxies: ['10.0.0.0/8', 'proxy.lan'] } } },
    }),
  );
  t.regex(
    error.message,
    /STACKD_CONFIG_INVALID: stackd\.api_service\.trusted_proxies\[1\]: 'proxy\.lan'/,
  );
});

test('refresh rotates; reuse after the grace revokes the sign-in; logout revokes', async (t) => {
  const host = await hostWith({}, { refresh_reuse_grace_sec: 0 });
  t.teardown(() => host.stop());
  const api = client(host);
  const login = await api.post('/api/auth/login', {
    username: 'admin',
    password: 'admin-password',
  });
  const first = login.body as { access_token: string; refresh_token: string };
  const rotated = await api.post('/api/auth/refresh', { refresh_token: first.refresh_token });
  expectStatus(t, rotated, 200);
  t.not(rotated.body.refresh_token, first.refresh_token);
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const replay = await api.post('/api/auth/refresh', { refresh_token: first.refresh_token });
  expectStatus(t, replay, 401, 'AUTH_REFRESH_TOKEN_REVOKED');
  expectStatus(
    t,
    await api.post('/api/auth/refresh', { refresh_token: rotated.body.refresh_token }),
    401,
    'AUTH_REFRESH_TOKEN_REVOKED',
  );

  const second = (
    await api.post('/api/auth/login', { username: 'admin', password: 'admin-password' })
  ).body as { access_token: string; refresh_token: string };
  const out = await api.post(
    '/api/auth/logout',
    { refresh_token: second.refresh_token },
    second.access_token,
  );
  expectStatus(t, out, 200);
  expectStatus(
    t,
    await api.post('/api/auth/refresh', { refresh_token: second.refresh_token }),
    401,
  );
});

test('logout with the refresh token alone (no or an expired access token) revokes it', async (t) => {
  const host = await hostWith({}, { access_token_ttl_sec: 1 });
  t.teardown(() => host.stop());
  const api = client(host);
  const signIn = async (): Promise<{ access_token: string; refresh_token: string }> =>
    (await api.post('/api/auth/login', { username: 'admin', password: 'admin-password' })).body as {
      access_token: string;
      refresh_token: string;
    };

  const bare = await signIn();
  const out = await api.post('/api/auth/logout', { refresh_token: bare.refresh_token });
  expectStatus(t, out, 200);
  t.is(out.body.message, 'Signed out');
  expectStatus(
    t,
    await api.post('/api/auth/refresh', { refresh_token: bare.refresh_token }),
    401,
    'AUTH_REFRESH_TOKEN_REVOKED',
  );

  const expired = await signIn();
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  expectStatus(t, await api.get('/api/auth/users', expired.access_token), 401);
  expectStatus(
    t,
    await api.post(
      '/api/auth/logout',
      { refresh_token: expired.refresh_token },
      expired.access_token,
    ),
    200,
  );
  expectStatus(
    t,
    await api.post('/api/auth/refresh', { refresh_token: expired.refresh_token }),
    401,
  );
  // Still the credential: a forged or a missing refresh token is refused.
  expectStatus(
    t,
    await api.post('/api/auth/logout', { refresh_token: 'not-a-token' }),
    401,
    'AUTH_INVALID_REFRESH_TOKEN',
  );
  expectStatus(t, await api.post('/api/auth/logout', {}), 422);
});
