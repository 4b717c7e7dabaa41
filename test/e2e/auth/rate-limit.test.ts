/** Login throttling (docs/decisions.md §10) against the real host: 429 with Retry-After. */
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import type { RunningHostProcess } from '../../helpers/start-host.js';
import { client, expectStatus, startAuthHost } from './auth-host.js';

async function hostWithAdmin(limits: Record<string, number>): Promise<RunningHostProcess> {
  const host = await startAuthHost({ login_rate_limit: { lockout_base_sec: 1, ...limits } });
  const setup = await client(host).post('/api/auth/setup', {
    username: 'admin',
    password: 'admin-password',
  });
  if (setup.status !== 200) throw new Error(setup.text);
  return host;
}

test('failed logins for one username lock it: 429 with Retry-After, then it unlocks', async (t) => {
  const host = await hostWithAdmin({ max_failures_per_user: 3, max_failures_per_address: 100 });
  try {
    const api = client(host);
    for (let attempt = 0; attempt < 3; attempt += 1)
      expectStatus(
        t,
        await api.post('/api/auth/login', { username: 'admin', password: 'wrong-pass' }),
        401,
      );
    const locked = await api.post('/api/auth/login', {
      username: 'admin',
      password: 'admin-password',
    });
    expectStatus(t, locked, 429, 'AUTH_RATE_LIMITED');
    t.is(locked.headers.get('retry-after'), '1');
    // Another username from the same address is not affected.
    expectStatus(
      t,
      await api.post('/api/auth/login', { username: 'other', password: 'wrong-pass' }),
      401,
    );
    const unlocked = await eventually(
      async () => {
        const response = await api.post('/api/auth/login', {
          username: 'admin',
          password: 'admin-password',
        });
        return response.status === 200 ? response : undefined;
      },
      { timeoutMs: 5_000, what: 'the lockout to end' },
    );
    t.is(unlocked.body.token_type, 'bearer');
  } finally {
    await host.stop();
  }
});

test('failed logins from one address lock that address for every username', async (t) => {
  const host = await hostWithAdmin({
    max_failures_per_user: 100,
    max_failures_per_address: 4,
    lockout_base_sec: 30,
  });
  try {
    const api = client(host);
    for (const username of ['user1', 'user2', 'user3', 'user4'])
      expectStatus(t, await api.post('/api/auth/login', { username, password: 'wrong-pass' }), 401);
    const locked = await api.post('/api/auth/login', {
      username: 'admin',
      password: 'admin-password',
    });
    expectStatus(t, locked, 429, 'AUTH_RATE_LIMITED');
    const retryAfter = Number(locked.headers.get('retry-after'));
    t.true(retryAfter >= 29 && retryAfter <= 30, String(retryAfter));
    // The lock is on logins only: the rest of the API still answers.
    expectStatus(t, await api.get('/api/auth/status'), 200);
  } finally {
    await host.stop();
  }
});
