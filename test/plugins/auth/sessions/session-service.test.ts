/** Login, refresh and verify over the real store, with a hand-moved clock. */
import test from 'ava';
import { HttpError } from '../../../../sdk/index.js';
import { authParts } from '../auth-harness.js';

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

async function enabledWithAdmin(options: Parameters<typeof authParts>[0] = {}) {
  const parts = authParts(options);
  await parts.accounts.setup('admin', 'admin-password');
  return parts;
}

test('login with correct credentials returns a bearer pair', async (t) => {
  const { sessions } = await enabledWithAdmin();
  const pair = await sessions.login('admin', 'admin-password', '127.0.0.1');
  t.is(pair.token_type, 'bearer');
  t.deepEqual(await sessions.verify(pair.access_token), { valid: true, username: 'admin' });
});

test('wrong password and unknown user are the same 401', async (t) => {
  const { sessions } = await enabledWithAdmin();
  const wrong = await failure(sessions.login('admin', 'nope-nope-nope', '127.0.0.1'));
  const unknown = await failure(sessions.login('ghost', 'admin-password', '127.0.0.1'));
  for (const error of [wrong, unknown]) {
    t.is(error.status, 401);
    t.is(error.code, 'AUTH_INVALID_CREDENTIALS');
    t.is(error.message, 'Incorrect username or password');
  }
});

test('a disabled user with the right password gets 403; with a wrong one 401', async (t) => {
  const { sessions, accounts } = await enabledWithAdmin();
  await accounts.createUser('bob', 'bob-password');
  accounts.setDisabled('bob', true);
  t.like(await failure(sessions.login('bob', 'bob-password', '127.0.0.1')), {
    status: 403,
    code: 'AUTH_USER_DISABLED',
  });
  t.like(await failure(sessions.login('bob', 'bad-password', '127.0.0.1')), { status: 401 });
});

test('login and refresh answer 401 while auth is disabled; verify says invalid', async (t) => {
  const { sessions, accounts } = await enabledWithAdmin();
  const pair = await sessions.login('admin', 'admin-password', '127.0.0.1');
  accounts.disable();
  t.like(await failure(sessions.login('admin', 'admin-password', '127.0.0.1')), {
    status: 401,
    code: 'AUTH_NOT_ENABLED',
  });
  t.like(await failure(sessions.refresh(pair.refresh_token, '127.0.0.1')), { status: 401 });
  t.deepEqual(await sessions.verify(pair.access_token), { valid: false, username: null });
});

test('refresh exchanges a refresh token, never an access token', async (t) => {
  const { sessions, clock } = await enabledWithAdmin();
  const pair = await sessions.login('admin', 'admin-password', '127.0.0.1');
  clock.advance(5_000);
  const next = await sessions.refresh(pair.refresh_token, '127.0.0.1');
  t.not(next.access_token, pair.access_token);
  t.deepEqual(await sessions.verify(next.access_token), { valid: true, username: 'admin' });
  t.like(await failure(sessions.refresh(pair.access_token, '127.0.0.1')), {
    status: 401,
    code: 'AUTH_INVALID_REFRESH_TOKEN',
  });
  t.deepEqual(await sessions.verify(pair.refresh_token), { valid: false, username: null });
});

test('refresh: expired 401, deleted user 401, disabled user 403', async (t) => {
  const { sessions, accounts, clock } = await enabledWithAdmin({ refreshTtlSec: 10 });
  await accounts.createUser('bob', 'bob-password');
  await accounts.createUser('carol', 'carol-password');
  const bob = await sessions.login('bob', 'bob-password', '127.0.0.1');
  const carol = await sessions.login('carol', 'carol-password', '127.0.0.1');
  accounts.deleteUser('bob');
  accounts.setDisabled('carol', true);
  t.like(await failure(sessions.refresh(bob.refresh_token, '127.0.0.1')), {
    status: 401,
    code: 'AUTH_USER_REVOKED',
  });
  t.like(await failure(sessions.refresh(carol.refresh_token, '127.0.0.1')), { status: 403 });
  const admin = await sessions.login('admin', 'admin-password', '127.0.0.1');
  clock.advance(10_000);
  t.like(await failure(sessions.refresh(admin.refresh_token, '127.0.0.1')), {
    status: 401,
    code: 'AUTH_INVALID_REFRESH_TOKEN',
  });
});

test('a user deleted and created again does not inherit the old tokens', async (t) => {
  const { sessions, accounts } = await enabledWithAdmin();
  await accounts.createUser('bob', 'bob-password');
  const old = await sessions.login('bob', 'bob-password', '127.0.0.1');
  accounts.deleteUser('bob');
  await accounts.createUser('bob', 'new-bob-password');
  t.deepEqual(await sessions.verify(old.access_token), { valid: false, username: null });
  t.like(await failure(sessions.refresh(old.refresh_token, '127.0.0.1')), { status: 401 });
});

test('failures lock the username from that address only; the owner elsewhere signs in', async (t) => {
  const { sessions, clock, lines } = await enabledWithAdmin({ perUser: 3 });
  for (let attempt = 0; attempt < 3; attempt += 1)
    t.like(await failure(sessions.login('admin', 'wrong-password', '10.0.0.1')), { status: 401 });
  const locked = await failure(sessions.login('admin', 'admin-password', '10.0.0.1'));
  t.is(locked.status, 429, 'the guessing address is locked even with the right password');
  t.is(locked.code, 'AUTH_RATE_LIMITED');
  t.is(locked.headers['Retry-After'], '30');
  t.is(lines.filter((line) => line.includes('login locked after repeated failures')).length, 1);
  t.is((await sessions.login('admin', 'admin-password', '10.0.0.2')).token_type, 'bearer');
  t.is(
    await sessions.login('ADMIN', 'wrong-password', '10.0.0.1').catch(() => 'refused'),
    'refused',
  );
  clock.advance(30_000);
  t.is((await sessions.login('admin', 'admin-password', '10.0.0.1')).token_type, 'bearer');
  // Success cleared that address's failures for the name: one more failure does not lock again.
  await failure(sessions.login('admin', 'wrong-password', '10.0.0.1'));
  t.is((await sessions.login('admin', 'admin-password', '10.0.0.1')).token_type, 'bearer');
});

test('a guesser spread over many addresses is slowed, the owner from a known address is not', async (t) => {
  const { sessions, slowdown } = await enabledWithAdmin({
    perUser: 3,
    slowdownAfter: 4,
    slowdownIntervalMs: 1000,
  });
  await sessions.login('admin', 'admin-password', '192.168.1.5');
  for (let index = 0; index < 4; index += 1)
    await failure(sessions.login('admin', 'wrong-password', `10.1.0.${index}`));
  t.deepEqual(slowdown.turn('admin', '10.1.0.99'), { kind: 'now' }, 'the first slowed turn');
  t.like(slowdown.turn('admin', '10.1.0.98'), { kind: 'wait' }, 'the next one waits its turn');
  t.deepEqual(slowdown.turn('admin', '192.168.1.5'), { kind: 'now' }, 'the owner goes first');
  t.is((await sessions.login('admin', 'admin-password', '192.168.1.5')).token_type, 'bearer');
});

test('refresh rotates: the old token works only within the grace, then revokes the sign-in', async (t) => {
  const { sessions, clock } = await enabledWithAdmin({ graceMs: 5_000 });
  const first = await sessions.login('admin', 'admin-password', '127.0.0.1');
  const second = await sessions.refresh(first.refresh_token, '127.0.0.1');
  t.not(second.refresh_token, first.refresh_token);
  clock.advance(2_000);
  const racing = await sessions.refresh(first.refresh_token, '127.0.0.1');
  t.is(racing.token_type, 'bearer', 'a second tab within the grace still gets a pair');
  clock.advance(10_000);
  t.like(await failure(sessions.refresh(first.refresh_token, '127.0.0.1')), {
    status: 401,
    code: 'AUTH_REFRESH_TOKEN_REVOKED',
  });
  t.like(
    await failure(sessions.refresh(second.refresh_token, '127.0.0.1')),
    { status: 401, code: 'AUTH_REFRESH_TOKEN_REVOKED' },
    'a replay ends the whole sign-in, successors included',
  );
  const other = await sessions.login('admin', 'admin-password', '127.0.0.1');
  t.is((await sessions.refresh(other.refresh_token, '127.0.0.1')).token_type, 'bearer');
});

test('logout revokes the sign-in of a refresh token; other sign-ins live on', async (t) => {
  const { sessions } = await enabledWithAdmin();
  const laptop = await sessions.login('admin', 'admin-password', '127.0.0.1');
  const phone = await sessions.login('admin', 'admin-password', '127.0.0.2');
  const rotated = await sessions.refresh(laptop.refresh_token, '127.0.0.1');
  await sessions.logout(laptop.refresh_token, '127.0.0.1');
  t.like(await failure(sessions.refresh(rotated.refresh_token, '127.0.0.1')), { status: 401 });
  t.is((await sessions.refresh(phone.refresh_token, '127.0.0.2')).token_type, 'bearer');
  t.like(await failure(sessions.logout('not-a-token', '127.0.0.1')), { status: 401 });
});

test('failed logins from one address lock that address for every username', async (t) => {
  const { sessions } = await enabledWithAdmin({ perAddress: 4 });
  for (const name of ['u1', 'u2', 'u3', 'u4'])
    await failure(sessions.login(name, 'wrong-password', '10.9.9.9'));
  t.like(await failure(sessions.login('admin', 'admin-password', '10.9.9.9')), { status: 429 });
  t.is((await sessions.login('admin', 'admin-password', '10.1.1.1')).token_type, 'bearer');
});
