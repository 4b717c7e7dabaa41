/** The journal store: group commit pacing, the wire form of committed and read events, size. */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import test, { type ExecutionContext } from 'ava';
import { JournalStore, type StoredEvent } from '../../../core/journal/journal-store.js';
import { tempDir } from '../../helpers/start-host.js';

function openStore(commitIntervalMs: number): JournalStore {
  return new JournalStore(
    join(tempDir('stackd-journal-store-'), 'events.db'),
    { commitIntervalMs, maxEvents: 1_000_000, maxAgeMs: 86_400_000 },
    (error) => {
      throw error;
    },
  );
}

/** A store that opens its file only when told (or read), failing the test on a write error. */
function deferredStore(t: ExecutionContext): { file: string; store: JournalStore } {
  const file = join(tempDir('stackd-journal-store-'), 'events.db');
  const settings = { commitIntervalMs: 10, maxEvents: 1_000_000, maxAgeMs: 86_400_000 };
  const store = new JournalStore(file, settings, (error) => t.fail(String(error)), {
    deferOpen: true,
  });
  t.teardown(() => store.close());
  return { file, store };
}

test('a quiet journal commits on the next turn, everything published in one turn together', async (t) => {
  const store = openStore(1000);
  t.teardown(() => store.close());
  const batches: StoredEvent[][] = [];
  store.subscribe((events) => batches.push([...events]));
  for (let n = 0; n < 3; n += 1) store.append('test.tick', 'a', { n });
  t.is(batches.length, 0, 'nothing is announced before its commit');
  await new Promise((resolve) => setImmediate(resolve));
  t.is(batches.length, 1, 'committed on the next turn, not after the interval');
  t.deepEqual(
    batches[0]?.map((event) => event.cursor),
    [1, 2, 3],
  );
  t.is(store.head, 3);
  t.is(store.commits, 1);
});

test('commits are at least the interval apart: what arrives in between waits for the next', async (t) => {
  const store = openStore(200);
  t.teardown(() => store.close());
  const commitTimes: number[] = [];
  store.subscribe(() => commitTimes.push(performance.now()));
  const started = performance.now();
  // 100 publishes spread over about a second, each in its own turn.
  for (let n = 0; n < 100; n += 1) {
    store.append('test.tick', 'spread', { n });
    await sleep(10);
  }
  store.flush();
  const seconds = (performance.now() - started) / 1000;
  t.true(commitTimes.length <= Math.ceil(seconds * 5) + 1, `${commitTimes.length} commits`);
  t.true(commitTimes.length >= 2, 'later events are committed by later commits');
  for (let index = 1; index < commitTimes.length - 1; index += 1)
    t.true((commitTimes[index] ?? 0) - (commitTimes[index - 1] ?? 0) >= 190);
  t.is(store.head, 100);
});

test('a committed event is announced as the same JSON a read answers', (t) => {
  const store = openStore(10);
  t.teardown(() => store.close());
  const announced: string[] = [];
  store.subscribe((events) => announced.push(...events.map((event) => event.json)));
  store.append('test.tick', 'quote "me"', { text: 'line\nbreak', nested: { list: [1, 2.5] } });
  store.flush();
  const [read] = store.readStored({ since: 0, limit: 10 });
  t.is(announced[0], read?.json);
  t.deepEqual(JSON.parse(announced[0] ?? '{}'), {
    cursor: 1,
    time: store.read({ since: 0, limit: 1 })[0]?.time,
    kind: 'test.tick',
    subject: 'quote "me"',
    data: { text: 'line\nbreak', nested: { list: [1, 2.5] } },
  });
});

test('a large batch is split over several statements with consecutive cursors', (t) => {
  const store = openStore(10);
  t.teardown(() => store.close());
  for (let n = 0; n < 1234; n += 1) store.append('test.tick', 'bulk', { n });
  store.flush();
  const events = store.read({ since: 0, limit: 2000 });
  t.is(events.length, 1234);
  t.true(events.every((event, index) => event.cursor === index + 1));
  t.true(events.every((event, index) => (event.data as { n: number }).n === index));
  const size = store.size();
  t.like(size, { events: 1234, oldest_cursor: 1, newest_cursor: 1234, commit_interval_ms: 10 });
  t.true(size.bytes > 1234 * 40, `${size.bytes} bytes`);
});

test('a replay page read as frames is the same JSON, in order, with filters applied', (t) => {
  const store = openStore(10);
  t.teardown(() => store.close());
  for (let n = 0; n < 30; n += 1)
    store.append(n % 3 === 0 ? 'test.other' : 'test.tick', n % 2 === 0 ? 'even' : 'odd "q"', {
      n,
      text: 'a\u001eb',
    });
  store.flush();
  const all = store.readFrames({ since: 0, limit: 100 });
  t.deepEqual(
    all.frames,
    store.readStored({ since: 0, limit: 100 }).map((event) => event.json),
  );
  t.is(all.last, 30);
  const filtered = store.readFrames({
    since: 5,
    kinds: ['test.tick'],
    subject: 'odd "q"',
    limit: 4,
  });
  const events = filtered.frames.map(
    (frame) => JSON.parse(frame) as { cursor: number; data: { n: number } },
  );
  t.deepEqual(
    events.map((event) => event.cursor),
    [6, 8, 12, 14],
  );
  t.is(filtered.last, 14);
  t.is(events[0]?.data.n, 5);
  t.deepEqual(store.readFrames({ since: 30, limit: 10 }), { frames: [], last: 30 });
});

test('commits go through a WAL while open; a clean close leaves a rollback-journal file', (t) => {
  const file = join(tempDir('stackd-journal-store-'), 'events.db');
  const settings = { commitIntervalMs: 10, maxEvents: 1_000_000, maxAgeMs: 86_400_000 };
  const fail = (error: unknown): never => {
    throw error;
  };
  const store = new JournalStore(file, settings, fail);
  for (let n = 0; n < 50; n += 1) store.append('test.tick', 'wal', { n });
  store.flush();
  // Bytes 18 and 19 of the header are the file format: 2 in WAL mode, 1 with a rollback journal.
  t.is(readFileSync(file)[18], 2);
  t.true(existsSync(`${file}-wal`));
  store.close();
  t.is(readFileSync(file)[18], 1);
  t.false(existsSync(`${file}-wal`));
  const reopened = new JournalStore(file, settings, fail);
  t.teardown(() => reopened.close());
  t.is(reopened.head, 50);
  t.is(reopened.read({ since: 0, limit: 100 }).length, 50);
});

test('a deferred store creates no file until it opens, then commits what waited, in order', async (t) => {
  const { file, store } = deferredStore(t);
  const announced: number[] = [];
  store.subscribe((events) => announced.push(...events.map((event) => event.cursor)));
  for (let n = 0; n < 5; n += 1) store.append('test.tick', 'early', { n });
  await sleep(50);
  t.false(existsSync(file), 'not opened by appends');
  t.deepEqual(announced, [], 'nothing announced before its commit');
  store.openAfter(20);
  await sleep(200);
  t.true(existsSync(file));
  t.deepEqual(announced, [1, 2, 3, 4, 5]);
  t.deepEqual(
    store.read({ since: 0, limit: 10 }).map((event) => (event.data as { n: number }).n),
    [0, 1, 2, 3, 4],
  );
});

test('a read opens a deferred store and answers with what waited; a close commits it too', (t) => {
  const file = join(tempDir('stackd-journal-store-'), 'events.db');
  const settings = { commitIntervalMs: 10, maxEvents: 1_000_000, maxAgeMs: 86_400_000 };
  const fail = (error: unknown): never => {
    throw error;
  };
  const first = new JournalStore(file, settings, fail, { deferOpen: true });
  for (let n = 0; n < 3; n += 1) first.append('test.tick', 'read', { n });
  t.is(first.head, 3, 'the read committed the waiting events first');
  t.is(first.read({ since: 0, limit: 10 }).length, 3);
  first.close();
  const second = new JournalStore(file, settings, fail, { deferOpen: true });
  second.append('test.tick', 'close', { n: 3 });
  second.close();
  const third = new JournalStore(file, settings, fail);
  t.teardown(() => third.close());
  t.is(third.head, 4, 'the event appended before the close was not lost');
});

test('a deferred store that cannot open reports it and opens on a retry, losing nothing that waited', async (t) => {
  const dir = tempDir('stackd-journal-store-');
  // The journal's folder is a plain file: the open fails until it becomes a folder.
  const folder = join(dir, 'journal');
  writeFileSync(folder, 'not a folder');
  const settings = { commitIntervalMs: 10, maxEvents: 1_000_000, maxAgeMs: 86_400_000 };
  const errors: unknown[] = [];
  const store = new JournalStore(
    join(folder, 'events.db'),
    settings,
    (error) => errors.push(error),
    {
      deferOpen: true,
    },
  );
  t.teardown(() => store.close());
  const announced: number[] = [];
  store.subscribe((events) => announced.push(...events.map((event) => event.cursor)));
  for (let n = 0; n < 3; n += 1) store.append('test.tick', 'waiting', { n });
  store.openAfter(10);
  await sleep(200);
  t.true(errors.length >= 1, 'the failed open was reported');
  t.not(store.writeFailure, null, '/health sees the failure');
  t.deepEqual(announced, []);
  rmSync(folder);
  mkdirSync(folder);
  const deadline = Date.now() + 5_000;
  while (announced.length < 3 && Date.now() < deadline) await sleep(50);
  t.deepEqual(
    announced,
    [1, 2, 3],
    'the retry opened the file and committed what waited, in order',
  );
  t.is(store.writeFailure, null);
});

test('a deferred store opened by a read commits later events at once, not when its open timer fires', async (t) => {
  const { store } = deferredStore(t);
  store.openAfter(5_000);
  t.is(store.head, 0, 'a read opened the file');
  const announced: number[] = [];
  store.subscribe((events) => announced.push(...events.map((event) => event.cursor)));
  store.append('test.tick', 'after the read', { n: 0 });
  await sleep(200);
  t.deepEqual(announced, [1], 'committed within a commit interval, long before the open timer');
});
