/**
 * The user account rules (docs/decisions.md §6, §8) and the auth rows of the error table (§2) (400, 401, 403, 404, 422)
 * against the real host.
 */
import test from 'ava';
import { request } from '../../helpers/http.js';
import type { RunningHostProcess } from '../../helpers/start-host.js';
import type { client } from './auth-host.js';
import { expectStatus, startWithAdmin } from './auth-host.js';

let host: RunningHostProcess;
let api: ReturnType<typeof client>;
let admin = '';

test.before(async () => {
  ({ host, api, admin } = await startWithAdmin());
});
test.after.always(async () => {
  await host?.stop();
});

interface UserList {
  users: Array<{ username: string; disabled: boolean }>;
}
const users = async () => (await api.get<UserList>('/api/auth/users', admin)).body.users;

test.serial('POST users creates a user; a duplicate is 400', async (t) => {
  const created = await api.post(
    '/api/auth/users',
    { username: 'bob', password: 'bob-password' },
    admin,
  );
  expectStatus(t, created, 200);
  t.deepEqual(created.body, { message: 'User created successfully', username: 'bob' });
  const duplicate = await api.post(
    '/auth/users',
    { username: 'bob', password: 'other-password' },
    admin,
  );
  expectStatus(t, duplicate, 400, 'AUTH_USERNAME_TAKEN');
  t.deepEqual(await users(), [
    { username: 'admin', disabled: false },
    { username: 'bob', disabled: false },
  ]);
});

test.serial(
  'active | PUT disabled true | not the last active user → flag set, user returned',
  async (t) => {
    const response = await api.put('/api/auth/users/bob', { disabled: true }, admin);
    expectStatus(t, response, 200);
    t.deepEqual(response.body, {
      message: 'User updated successfully',
      username: 'bob',
      disabled: true,
    });
    t.deepEqual(await users(), [
      { username: 'admin', disabled: false },
      { username: 'bob', disabled: true },
    ]);
  },
);

test.serial('disabled | login with correct credentials → 403; wrong password → 401', async (t) => {
  const login = await api.post('/api/auth/login', { username: 'bob', password: 'bob-password' });
  expectStatus(t, login, 403, 'AUTH_USER_DISABLED');
  const wrong = await api.post('/api/auth/login', { username: 'bob', password: 'not-bobs-pass' });
  expectStatus(t, wrong, 401, 'AUTH_INVALID_CREDENTIALS');
});

test.serial('active | PUT disabled true | last active user → 400, unchanged', async (t) => {
  const response = await api.put('/api/auth/users/admin', { disabled: true }, admin);
  expectStatus(t, response, 400, 'AUTH_LAST_ACTIVE_USER');
  t.deepEqual((await users())[0], { username: 'admin', disabled: false });
});

test.serial('active | DELETE | last active user → 400, unchanged', async (t) => {
  const response = await api.del('/api/auth/users/admin', admin);
  expectStatus(t, response, 400, 'AUTH_LAST_ACTIVE_USER');
  t.is((await users()).length, 2);
});

test.serial('disabled | PUT disabled false → flag cleared, user returned', async (t) => {
  const response = await api.put('/auth/users/bob', { disabled: false }, admin);
  expectStatus(t, response, 200);
  t.deepEqual(response.body, {
    message: 'User updated successfully',
    username: 'bob',
    disabled: false,
  });
  expectStatus(
    t,
    await api.post('/api/auth/login', { username: 'bob', password: 'bob-password' }),
    200,
  );
});

test.serial('active | PUT disabled true on one of two active users → allowed', async (t) => {
  expectStatus(t, await api.put('/api/auth/users/admin', { disabled: true }, admin), 200);
  // admin's own token is now refused (403), bob signs in and re-enables admin.
  expectStatus(t, await api.get('/api/auth/users', admin), 403, 'AUTH_USER_DISABLED');
  const bob = (await api.post('/api/auth/login', { username: 'bob', password: 'bob-password' }))
    .body.access_token as string;
  expectStatus(t, await api.put('/api/auth/users/admin', { disabled: false }, bob), 200);
  expectStatus(t, await api.get('/api/auth/users', admin), 200);
});

test.serial('any | DELETE | not the last active user → deleted, message returned', async (t) => {
  const response = await api.del('/api/auth/users/bob', admin);
  expectStatus(t, response, 200);
  t.deepEqual(response.body, { message: 'User deleted successfully' });
  t.deepEqual(await users(), [{ username: 'admin', disabled: false }]);
  // A disabled user is never the last active one, so it can always be deleted.
  await api.post('/api/auth/users', { username: 'carol', password: 'carol-password' }, admin);
  await api.put('/api/auth/users/carol', { disabled: true }, admin);
  expectStatus(t, await api.del('/auth/users/carol', admin), 200);
  t.deepEqual(await users(), [{ username: 'admin', disabled: false }]);
});

test.serial('unknown user → 404 on PUT and DELETE', async (t) => {
  expectStatus(
    t,
    await api.put('/api/auth/users/ghost', { disabled: true }, admin),
    404,
    'AUTH_USER_NOT_FOUND',
  );
  expectStatus(t, await api.del('/api/auth/users/ghost', admin), 404, 'AUTH_USER_NOT_FOUND');
});

test.serial('user management needs a token while auth is enabled', async (t) => {
  expectStatus(t, await api.get('/api/auth/users'), 401, 'AUTH_REQUIRED');
  expectStatus(
    t,
    await api.post('/api/auth/users', { username: 'eve', password: 'eve-password' }),
    401,
  );
  expectStatus(t, await api.put('/api/auth/users/admin', { disabled: true }), 401);
  expectStatus(t, await api.del('/api/auth/users/admin'), 401);
  expectStatus(t, await api.get('/api/auth/users', 'not.a.token'), 401, 'AUTH_INVALID_TOKEN');
});

test.serial(
  'invalid credentials → 401 (wrong password, unknown user); good ones → bearer pair',
  async (t) => {
    expectStatus(
      t,
      await api.post('/api/auth/login', { username: 'admin', password: 'wrong-pass' }),
      401,
      'AUTH_INVALID_CREDENTIALS',
    );
    expectStatus(
      t,
      await api.post('/api/auth/login', { username: 'nobody', password: 'admin-password' }),
      401,
      'AUTH_INVALID_CREDENTIALS',
    );
    const login = await api.post('/auth/login', { username: 'admin', password: 'admin-password' });
    expectStatus(t, login, 200);
    // device_token: the known-device credential that skips the username-wide login slowdown.
    t.deepEqual(Object.keys(login.body).sort(), [
      'access_token',
      'device_token',
      'refresh_token',
      'token_type',
    ]);
    t.is(login.body.token_type, 'bearer');
  },
);

test.serial('refresh: a refresh token gives a new pair; anything else is 401', async (t) => {
  const login = await api.post('/api/auth/login', {
    username: 'admin',
    password: 'admin-password',
  });
  const refreshed = await api.post('/api/auth/refresh', {
    refresh_token: login.body.refresh_token,
  });
  expectStatus(t, refreshed, 200);
  t.is(refreshed.body.token_type, 'bearer');
  expectStatus(t, await api.echo(refreshed.body.access_token), 200);
  expectStatus(
    t,
    await api.post('/api/auth/refresh', { refresh_token: login.body.access_token }),
    401,
    'AUTH_INVALID_REFRESH_TOKEN',
  );
  expectStatus(
    t,
    await api.post('/auth/refresh', { refresh_token: 'garbage' }),
    401,
    'AUTH_INVALID_REFRESH_TOKEN',
  );
});

test.serial('verify: valid access token → valid; anything else → 200 valid false', async (t) => {
  const login = await api.post('/api/auth/login', {
    username: 'admin',
    password: 'admin-password',
  });
  const good = await api.post('/api/auth/verify', { token: login.body.access_token });
  t.deepEqual([good.status, good.body], [200, { valid: true, username: 'admin' }]);
  const byQuery = await api.post(`/auth/verify?token=${login.body.access_token}`);
  t.deepEqual([byQuery.status, byQuery.body], [200, { valid: true, username: 'admin' }]);
  for (const token of ['garbage', login.body.refresh_token]) {
    const bad = await api.post('/api/auth/verify', { token });
    t.deepEqual([bad.status, bad.body], [200, { valid: false, username: null }]);
  }
  expectStatus(t, await api.post('/api/auth/verify', {}), 422);
});

const badFormats: ReadonlyArray<[string, Record<string, unknown>, string]> = [
  ['username too short', { username: 'ab', password: 'long-enough' }, 'username'],
  ['username too long', { username: 'a'.repeat(65), password: 'long-enough' }, 'username'],
  ['username with a space', { username: 'bad name', password: 'long-enough' }, 'username'],
  ['username with a slash', { username: 'bad/name', password: 'long-enough' }, 'username'],
  ['password too short', { username: 'goodname', password: 'short77' }, 'password'],
  ['password too long', { username: 'goodname', password: 'p'.repeat(73) }, 'password'],
  ['password missing', { username: 'goodname' }, 'password'],
  ['username not a string', { username: 42, password: 'long-enough' }, 'username'],
];

for (const [what, body, field] of badFormats) {
  test.serial(`422 naming the field: ${what} (setup, users, login)`, async (t) => {
    for (const path of ['/api/auth/setup', '/api/auth/users', '/api/auth/login']) {
      const response = await api.post(path, body, admin);
      expectStatus(t, response, 422);
      t.is(response.body.field, field, `${path}: ${response.text}`);
    }
  });
}

test.serial(
  'boundary formats are accepted: 3- and 64-char names, 8- and 72-char passwords',
  async (t) => {
    for (const [username, password] of [
      ['a.b', '12345678'],
      ['A_-.9'.repeat(12) + 'abcd', 'p'.repeat(72)],
    ] as const) {
      expectStatus(t, await api.post('/api/auth/users', { username, password }, admin), 200);
      expectStatus(t, await api.post('/api/auth/login', { username, password }), 200);
    }
  },
);

test.serial('malformed JSON and a wrong body type are 422', async (t) => {
  const malformed = await request(host.url, '/api/auth/users', {
    method: 'POST',
    rawBody: '{"username": ',
    token: admin,
  });
  expectStatus(t, malformed, 422);
  expectStatus(t, await api.put('/api/auth/users/admin', { disabled: 'yes' }, admin), 422);
  expectStatus(t, await api.post('/api/auth/refresh', {}), 422);
});

test.serial(
  'with auth disabled, user management is open (no token) and keeps its rules',
  async (t) => {
    expectStatus(t, await api.post('/api/auth/disable', undefined, admin), 200);
    expectStatus(
      t,
      await api.post('/api/auth/users', { username: 'dave', password: 'dave-password' }),
      200,
    );
    expectStatus(t, await api.put('/api/auth/users/dave', { disabled: true }), 200);
    expectStatus(t, await api.del('/api/auth/users/dave'), 200);
    expectStatus(t, await api.del('/api/auth/users/ghost'), 404);
    const list = await api.get<UserList>('/api/auth/users');
    expectStatus(t, list, 200);
    t.true(list.body.users.some((user) => user.username === 'admin'));
    // Tokens mean nothing while auth is off: login 401, verify false.
    expectStatus(
      t,
      await api.post('/api/auth/login', { username: 'admin', password: 'admin-password' }),
      401,
      'AUTH_NOT_ENABLED',
    );
    t.deepEqual((await api.post('/api/auth/verify', { token: admin })).body, {
      valid: false,
      username: null,
    });
  },
);
