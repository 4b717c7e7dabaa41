/**
 * A guesser spread over many addresses slows the username down, but must not lock the owner
 * out: the setup address counts as signed in, and a client that sends back its known-device
 * token skips the username-wide slowdown (never the per-address lockouts). Addresses are
 * simulated with a trusted proxy and X-Forwarded-For, against the real host.
 */
import test from 'ava';
import { request } from '../../helpers/http.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';
import { AUTH_PLUGIN, HELLO_PLUGIN, expectStatus } from './auth-host.js';

interface Owner {
  readonly host: RunningHostProcess;
  readonly deviceToken: string;
}

/**
 * A host where 3 failures for a username from anywhere queue its logins 60 s apart: for 30 s,
 * the next attempt after the queue filled is refused at once (its turn is over 30 s away).
 */
async function guessedHost(): Promise<Owner> {
  const host = await startHost({
    plugins: [AUTH_PLUGIN, HELLO_PLUGIN],
    config: {
      stackd: {
        api_service: { trusted_proxies: ['127.0.0.1', '::1'] },
        auth: {
          scrypt_cost_log2: 14,
          login_rate_limit: {
            slowdown_after_failures: 3,
            slowdown_interval_ms: 60_000,
            max_failures_per_user: 2,
            max_failures_per_address: 2,
            lockout_base_sec: 60,
          },
        },
      },
    },
  });
  // Set up from the proxy itself (no X-Forwarded-For): that address is the setup address.
  const setup = await request(host.url, '/api/auth/setup', {
    body: { username: 'admin', password: 'admin-password' },
  });
  if (setup.status !== 200) throw new Error(setup.text);
  return { host, deviceToken: setup.body.device_token as string };
}

function loginFrom(
  host: RunningHostProcess,
  address: string | null,
  password: string,
  deviceToken?: string,
) {
  return request(host.url, '/api/auth/login', {
    body: {
      username: 'admin',
      password,
      ...(deviceToken === undefined ? {} : { device_token: deviceToken }),
    },
    headers: address === null ? {} : { 'x-forwarded-for': address },
  });
}

/** A guesser from four addresses, one failure each: the username's queue is full. */
async function guess(host: RunningHostProcess): Promise<void> {
  for (let worker = 1; worker <= 4; worker += 1) {
    const answer = await loginFrom(host, `203.0.113.${worker}`, 'wrong-password');
    if (answer.status !== 401) throw new Error(`guess ${worker}: ${answer.status} ${answer.text}`);
  }
}

test('the owner from a new address is slowed, but gets in with the known-device token', async (t) => {
  const { host, deviceToken } = await guessedHost();
  t.teardown(() => host.stop());
  t.is(typeof deviceToken, 'string');
  await guess(host);
  const slowed = await loginFrom(host, '198.51.100.7', 'admin-password');
  expectStatus(t, slowed, 429, 'AUTH_RATE_LIMITED');
  t.truthy(slowed.headers.get('retry-after'));
  // A forged token is no known device (asked at once, while the queue is still over 30 s).
  const forged = `${deviceToken.slice(0, -6)}AAAAAA`;
  expectStatus(t, await loginFrom(host, '198.51.100.10', 'admin-password', forged), 429);

  const known = await loginFrom(host, '198.51.100.8', 'admin-password', deviceToken);
  expectStatus(t, known, 200);
  t.is(typeof known.body.device_token, 'string', 'each sign-in hands out a device token');
  // The newly signed-in address is trusted too, without the token.
  expectStatus(t, await loginFrom(host, '198.51.100.8', 'admin-password'), 200);
  // A device token never makes a wrong password right.
  expectStatus(t, await loginFrom(host, '198.51.100.9', 'wrong-password', deviceToken), 401);
});

test('the setup address counts as signed in: the owner there skips the slowdown', async (t) => {
  const { host } = await guessedHost();
  t.teardown(() => host.stop());
  await guess(host);
  expectStatus(t, await loginFrom(host, null, 'admin-password'), 200);
});

test('a device token does not skip the per-address lockout', async (t) => {
  const { host, deviceToken } = await guessedHost();
  t.teardown(() => host.stop());
  for (let attempt = 0; attempt < 2; attempt += 1)
    expectStatus(t, await loginFrom(host, '203.0.113.50', 'wrong-password', deviceToken), 401);
  const locked = await loginFrom(host, '203.0.113.50', 'admin-password', deviceToken);
  expectStatus(t, locked, 429, 'AUTH_RATE_LIMITED');
});

test('a device token is not an access token', async (t) => {
  const { host, deviceToken } = await guessedHost();
  t.teardown(() => host.stop());
  const users = await request(host.url, '/api/auth/users', { token: deviceToken });
  t.is(users.status, 401);
});
