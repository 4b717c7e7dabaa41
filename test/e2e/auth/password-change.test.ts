/**
 * Changing a password through `PUT /api/auth/users/{username}`: your own needs the current
 * password, another user's is reset without it, and either way every refresh token of that user
 * stops working. Against the real host.
 */
import test from 'ava';
import type { RunningHostProcess } from '../../helpers/start-host.js';
import type { client } from './auth-host.js';
import { expectStatus, startWithAdmin } from './auth-host.js';

let host: RunningHostProcess;
let api: ReturnType<typeof client>;
let admin = '';
let adminRefresh = '';

test.before(async () => {
  ({ host, api, admin, adminRefresh } = await startWithAdmin());
  await api.post('/api/auth/users', { username: 'bob', password: 'bob-password' }, admin);
});
test.after.always(async () => {
  await host?.stop();
});

const login = (username: string, password: string) =>
  api.post('/api/auth/login', { username, password });

test.serial(
  'changing your own password needs the current one and ends your sign-ins',
  async (t) => {
    const missing = await api.put('/api/auth/users/admin', { password: 'admin-password-2' }, admin);
    expectStatus(t, missing, 422, 'AUTH_CURRENT_PASSWORD_REQUIRED');
    t.is(missing.body.field, 'current_password');
    const wrong = await api.put(
      '/api/auth/users/admin',
      { password: 'admin-password-2', current_password: 'not-the-password' },
      admin,
    );
    expectStatus(t, wrong, 403, 'AUTH_CURRENT_PASSWORD_WRONG');
    expectStatus(t, await login('admin', 'admin-password'), 200);

    const changed = await api.put(
      '/api/auth/users/admin',
      { password: 'admin-password-2', current_password: 'admin-password' },
      admin,
    );
    expectStatus(t, changed, 200);
    t.deepEqual(changed.body, {
      message: 'User updated successfully',
      username: 'admin',
      disabled: false,
      password_changed: true,
    });
    expectStatus(t, await login('admin', 'admin-password'), 401, 'AUTH_INVALID_CREDENTIALS');
    const fresh = await login('admin', 'admin-password-2');
    expectStatus(t, fresh, 200);
    admin = fresh.body.access_token as string;
    const old = await api.post('/api/auth/refresh', { refresh_token: adminRefresh });
    expectStatus(t, old, 401, 'AUTH_REFRESH_TOKEN_REVOKED');
  },
);

test.serial(
  "an admin resets another user's password without theirs; their sign-ins end",
  async (t) => {
    const bob = await login('bob', 'bob-password');
    expectStatus(t, bob, 200);
    const reset = await api.put('/api/auth/users/bob', { password: 'bob-new-password' }, admin);
    expectStatus(t, reset, 200);
    t.like(reset.body, { username: 'bob', disabled: false, password_changed: true });
    const refresh = await api.post('/api/auth/refresh', { refresh_token: bob.body.refresh_token });
    expectStatus(t, refresh, 401, 'AUTH_REFRESH_TOKEN_REVOKED');
    expectStatus(t, await login('bob', 'bob-password'), 401, 'AUTH_INVALID_CREDENTIALS');
    expectStatus(t, await login('bob', 'bob-new-password'), 200);
    // The admin's own sign-in is untouched by resetting someone else's password.
    expectStatus(t, await api.get('/api/auth/users', admin), 200);
  },
);

test.serial('a bad new password, an empty update and an unknown user are refused', async (t) => {
  const short = await api.put('/api/auth/users/bob', { password: 'short' }, admin);
  expectStatus(t, short, 422);
  t.is(short.body.field, 'password');
  expectStatus(t, await api.put('/api/auth/users/bob', {}, admin), 422, 'AUTH_NOTHING_TO_UPDATE');
  const unknown = await api.put('/api/auth/users/nobody', { password: 'long-enough-1' }, admin);
  expectStatus(t, unknown, 404, 'AUTH_USER_NOT_FOUND');
  expectStatus(t, await login('bob', 'bob-new-password'), 200, undefined);
});

test.serial('the document lists the password fields and the 403 of the route', async (t) => {
  const doc = (await api.get('/openapi.json')).body;
  const put = doc.paths['/api/auth/users/{username}'].put;
  t.truthy(put.responses['403']);
  const ref = put.requestBody.content['application/json'].schema;
  const schema = ref.$ref === undefined ? ref : doc.components.schemas[ref.$ref.split('/').pop()];
  t.deepEqual(Object.keys(schema.properties).sort(), ['current_password', 'disabled', 'password']);
});
