import { mkdirSync, mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { openSqlite } from '../../../core/storage/sqlite-store.js';
import { FolderStorage } from '../../../core/storage/plugin-storage.js';

test('rows round-trip and transactions roll back on error', (t) => {
  const db = openSqlite(join(mkdtempSync(join(tmpdir(), 'sqlite-')), 'x.sqlite'));
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  db.run('INSERT INTO items (name) VALUES (?)', ['one']);
  t.throws(() =>
    db.transaction(() => {
      db.run('INSERT INTO items (name) VALUES (:name)', { ':name': 'two' });
      throw new Error('abort');
    }),
  );
  t.deepEqual(db.all('SELECT name FROM items'), [{ name: 'one' }]);
  t.is(db.get('SELECT name FROM items WHERE id = ?', [99]), undefined);
  db.close();
});

test('a prepared statement runs again with new parameters, inside and outside transactions', (t) => {
  const db = openSqlite(join(mkdtempSync(join(tmpdir(), 'sqlite-')), 'p.sqlite'));
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO items (name) VALUES (?)');
  t.deepEqual(insert.run(['one']), { changes: 1, lastInsertRowid: 1 });
  const ids = db.transaction(() =>
    ['two', 'three'].map((name) => insert.run([name]).lastInsertRowid),
  );
  t.deepEqual(ids, [2, 3]);
  t.throws(() => db.transaction(() => insert.run([null])), { message: /NOT NULL/ });
  t.deepEqual(
    db.all('SELECT id, name FROM items ORDER BY id').map((row) => row.name),
    ['one', 'two', 'three'],
  );
  insert.finalize();
  insert.finalize();
  db.close();
});

test('a lock left by a crashed host does not block the next open', (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'sqlite-')), 'y.sqlite');
  openSqlite(file).close();
  mkdirSync(`${file}.lock`);
  const db = openSqlite(file);
  db.exec('CREATE TABLE t (x)');
  t.is(db.run('INSERT INTO t VALUES (1)').changes, 1);
  db.close();
  t.false(existsSync(`${file}.lock`));
});

test('plugin storage stays inside its folder', async (t) => {
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'data-')), 'demo');
  await storage.writeJsonAtomic('state/x.json', { a: 1 });
  t.deepEqual(await storage.readJson('state/x.json'), { a: 1 });
  t.is(await storage.readJson('missing.json'), undefined);
  t.throws(() => storage.path('../escape'), { message: /escapes the storage folder/ });
  const db = storage.openDatabase();
  db.exec('CREATE TABLE t (x)');
  storage.closeAll();
  t.true(existsSync(join(storage.dir, 'plugin.sqlite')));
});
