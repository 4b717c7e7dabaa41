/** The authentication mode and user account rules (docs/decisions.md §6, §8) on the real store. */
import test, { type ExecutionContext } from 'ava';
import { HttpError } from '../../../../sdk/index.js';
import { AuthStateStore } from '../../../../plugins/auth/accounts/auth-state.js';
import { UserStore } from '../../../../plugins/auth/accounts/user-store.js';
import { authParts } from '../auth-harness.js';

/** Assert that `action` fails with an sdk error of this status and code. */
async function rejectsWith(
  t: ExecutionContext,
  action: Promise<unknown> | (() => unknown),
  status: number,
  code: string,
): Promise<void> {
  const error = await t.throwsAsync(
    async () => await (typeof action === 'function' ? action() : action),
    { instanceOf: HttpError },
  );
  t.is(error?.status, status);
  t.is(error?.code, code);
}

test('a fresh install: auth disabled, no users, setup not skipped', (t) => {
  const { accounts } = authParts();
  t.deepEqual(accounts.status(), { enabled: false, has_users: false, setup_skipped: false });
});

test('setup creates the first user, enables auth and returns tokens; a second setup is 400', async (t) => {
  const { accounts, tokens } = authParts();
  const pair = await accounts.setup('admin', 'first-password');
  t.deepEqual(accounts.status(), { enabled: true, has_users: true, setup_skipped: false });
  t.like(await tokens.verify(pair.access_token, 'access'), { ok: true, claims: { sub: 'admin' } });
  await rejectsWith(t, accounts.setup('other', 'second-password'), 400, 'AUTH_USERS_EXIST');
  t.deepEqual(accounts.listUsers(), [{ username: 'admin', disabled: false }]);
});

test('concurrent setups: exactly one wins', async (t) => {
  const { accounts } = authParts();
  const results = await Promise.allSettled([
    accounts.setup('first', 'password-one'),
    accounts.setup('second', 'password-two'),
  ]);
  t.is(results.filter((result) => result.status === 'fulfilled').length, 1);
  t.is(accounts.listUsers().length, 1);
});

test('skip-setup disables auth in any state; enable needs a user', async (t) => {
  const { accounts } = authParts();
  accounts.skipSetup();
  t.deepEqual(accounts.status(), { enabled: false, has_users: false, setup_skipped: true });
  await rejectsWith(t, () => accounts.enable(), 400, 'AUTH_NO_USERS');
  t.false(accounts.status().enabled);
  await accounts.createUser('alice', 'alice-password');
  accounts.enable();
  t.true(accounts.status().enabled);
  accounts.skipSetup();
  t.like(accounts.status(), { enabled: false, setup_skipped: true, has_users: true });
  accounts.enable();
  accounts.disable();
  t.false(accounts.status().enabled);
});

test('duplicate usernames are refused with 400; names are case-sensitive', async (t) => {
  const { accounts } = authParts();
  await accounts.createUser('alice', 'alice-password');
  await rejectsWith(
    t,
    accounts.createUser('alice', 'another-password'),
    400,
    'AUTH_USERNAME_TAKEN',
  );
  await accounts.createUser('Alice', 'another-password');
  t.deepEqual(
    accounts.listUsers().map((user) => user.username),
    ['Alice', 'alice'],
  );
});

test('the last active user can be neither disabled nor deleted', async (t) => {
  const { accounts } = authParts();
  await accounts.setup('admin', 'admin-password');
  await rejectsWith(t, () => accounts.setDisabled('admin', true), 400, 'AUTH_LAST_ACTIVE_USER');
  await rejectsWith(t, () => accounts.deleteUser('admin'), 400, 'AUTH_LAST_ACTIVE_USER');
  await accounts.createUser('bob', 'bob-password');
  t.deepEqual(accounts.setDisabled('bob', true), { username: 'bob', disabled: true });
  // bob is disabled, so admin is still the last active user.
  await rejectsWith(t, () => accounts.setDisabled('admin', true), 400, 'AUTH_LAST_ACTIVE_USER');
  await rejectsWith(t, () => accounts.deleteUser('admin'), 400, 'AUTH_LAST_ACTIVE_USER');
  // Disabling an already disabled user and deleting a disabled user are fine.
  t.deepEqual(accounts.setDisabled('bob', true), { username: 'bob', disabled: true });
  accounts.deleteUser('bob');
  t.deepEqual(accounts.listUsers(), [{ username: 'admin', disabled: false }]);
});

test('two active users: one may be disabled, re-enabled and deleted', async (t) => {
  const { accounts } = authParts();
  await accounts.setup('admin', 'admin-password');
  await accounts.createUser('bob', 'bob-password');
  accounts.setDisabled('admin', true);
  t.deepEqual(accounts.setDisabled('admin', false), { username: 'admin', disabled: false });
  accounts.deleteUser('admin');
  t.deepEqual(accounts.listUsers(), [{ username: 'bob', disabled: false }]);
});

test('unknown users are 404 on update and delete', async (t) => {
  const { accounts } = authParts();
  await accounts.setup('admin', 'admin-password');
  await rejectsWith(t, () => accounts.setDisabled('ghost', true), 404, 'AUTH_USER_NOT_FOUND');
  await rejectsWith(t, () => accounts.deleteUser('ghost'), 404, 'AUTH_USER_NOT_FOUND');
});

test('state and users persist in the database; only the hash is stored', async (t) => {
  const { accounts, db, lines } = authParts();
  await accounts.setup('admin', 'planted-Secret-99');
  accounts.skipSetup();
  const reopenedState = new AuthStateStore(db);
  t.deepEqual(reopenedState.mode, { enabled: false, setupSkipped: true });
  const row = new UserStore(db).findCredentials('admin');
  t.truthy(row);
  t.regex(row?.passwordHash ?? '', /^scrypt\$/);
  const everything = JSON.stringify(db.all('SELECT * FROM users'));
  t.false(everything.includes('planted-Secret-99'));
  t.false(lines.join('\n').includes('planted-Secret-99'));
});
