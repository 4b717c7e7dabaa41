/** The `core.authenticator` answers, request by request. */
import test from 'ava';
import type { AuthenticationRequest } from '../../../../sdk/index.js';
import { authParts } from '../auth-harness.js';

const ask = (token: string | null): AuthenticationRequest => ({
  token,
  ip: '127.0.0.1',
  path: '/hello/echo',
  transport: 'http',
});

test('with auth disabled everything is open, token or not', async (t) => {
  const { authenticator } = authParts();
  t.deepEqual(await authenticator.authenticate(ask(null)), { ok: true, principal: null });
  t.deepEqual(await authenticator.authenticate(ask('garbage')), { ok: true, principal: null });
});

test('with auth enabled: missing 401, bad 401, refresh 401, access 200', async (t) => {
  const { authenticator, accounts } = authParts();
  const pair = await accounts.setup('admin', 'admin-password');
  t.like(await authenticator.authenticate(ask(null)), {
    ok: false,
    status: 401,
    code: 'AUTH_REQUIRED',
  });
  t.like(await authenticator.authenticate(ask('garbage')), {
    ok: false,
    status: 401,
    code: 'AUTH_INVALID_TOKEN',
  });
  t.like(await authenticator.authenticate(ask(pair.refresh_token)), { ok: false, status: 401 });
  t.deepEqual(await authenticator.authenticate(ask(pair.access_token)), {
    ok: true,
    principal: { username: 'admin' },
  });
});

test('an existing token stops working at once: disabled 403, deleted 401, expired 401', async (t) => {
  const { authenticator, accounts, sessions, clock } = authParts({ accessTtlSec: 60 });
  await accounts.setup('admin', 'admin-password');
  await accounts.createUser('bob', 'bob-password');
  await accounts.createUser('carol', 'carol-password');
  const bob = await sessions.login('bob', 'bob-password', '127.0.0.1');
  const carol = await sessions.login('carol', 'carol-password', '127.0.0.1');
  accounts.setDisabled('bob', true);
  accounts.deleteUser('carol');
  t.like(await authenticator.authenticate(ask(bob.access_token)), {
    ok: false,
    status: 403,
    code: 'AUTH_USER_DISABLED',
  });
  t.like(await authenticator.authenticate(ask(carol.access_token)), { ok: false, status: 401 });
  accounts.setDisabled('bob', false);
  t.like(await authenticator.authenticate(ask(bob.access_token)), { ok: true });
  clock.advance(60_000);
  t.like(await authenticator.authenticate(ask(bob.access_token)), {
    ok: false,
    status: 401,
    code: 'AUTH_INVALID_TOKEN',
  });
});
