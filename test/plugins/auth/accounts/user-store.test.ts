/** The users table and its in-memory mirror stay in step, across reopen and rollback. */
import test from 'ava';
import { UserStore } from '../../../../plugins/auth/accounts/user-store.js';
import { tempStorage } from '../auth-harness.js';

test('insert, find, disable and delete; reopening the database sees the same users', (t) => {
  const storage = tempStorage();
  const db = storage.openDatabase('auth.sqlite');
  const store = new UserStore(db);
  const alice = store.insert('alice', 'scrypt$hash-a');
  t.truthy(alice);
  t.is(store.insert('alice', 'scrypt$other'), undefined);
  store.insert('bob', 'scrypt$hash-b');
  t.true(store.setDisabled('bob', true));
  t.false(store.setDisabled('ghost', true));
  t.deepEqual(store.list(), [
    { username: 'alice', disabled: false },
    { username: 'bob', disabled: true },
  ]);
  t.is(store.count(), 2);
  t.is(store.activeCount(), 1);
  t.is(store.findCredentials('alice')?.passwordHash, 'scrypt$hash-a');

  db.close();
  const reopened = new UserStore(storage.openDatabase('auth.sqlite'));
  t.deepEqual(reopened.find('alice'), alice);
  t.deepEqual(reopened.find('bob')?.disabled, true);
  t.true(reopened.delete('bob'));
  t.false(reopened.delete('bob'));
  t.is(reopened.find('bob'), undefined);
  t.is(reopened.count(), 1);
});

test('every user row gets its own uid, also when a name is reused', (t) => {
  const store = new UserStore(tempStorage().openDatabase('auth.sqlite'));
  const first = store.insert('carol', 'h1');
  store.delete('carol');
  const second = store.insert('carol', 'h2');
  t.truthy(first?.uid);
  t.not(first?.uid, second?.uid);
});

test('a rolled-back transaction leaves neither the table nor the mirror changed', (t) => {
  const db = tempStorage().openDatabase('auth.sqlite');
  const store = new UserStore(db);
  store.insert('dave', 'h');
  t.throws(() =>
    store.transaction(() => {
      store.insert('erin', 'h');
      store.setDisabled('dave', true);
      throw new Error('later step failed');
    }),
  );
  t.is(store.find('erin'), undefined);
  t.is(store.find('dave')?.disabled, false);
  t.is(db.all('SELECT * FROM users').length, 1);
});
