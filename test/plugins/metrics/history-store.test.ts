import test from 'ava';
import { join } from 'node:path';
import { openSqlite } from '../../../core/storage/sqlite-store.js';
import { tempDir } from '../../helpers/start-host.js';
import { MetricsHistoryStore } from '../../../plugins/metrics/history/history-store.js';
import { HistoryRecorder } from '../../../plugins/metrics/history/history-recorder.js';
import { runSeriesQuery } from '../../../plugins/metrics/history/series-query.js';
import { snapshotAt } from './snapshot-factory.js';
import type { Logger } from '../../../sdk/index.js';

const BASE = Date.UTC(2026, 0, 1);
const openStore = () =>
  new MetricsHistoryStore(openSqlite(join(tempDir('stackd-metrics-'), 'h.sqlite')));
const all = { sinceMs: 0, untilMs: Number.MAX_SAFE_INTEGER };

test('round trip: a stored snapshot reads back equal', (t) => {
  const store = openStore();
  const snapshot = snapshotAt(BASE, { cpu: 33, processes: { Web: { cpu: 1.5, rss: 2048 } } });
  store.append(snapshot);
  t.deepEqual(store.read(all, 10), { items: [snapshot], truncated: false });
});

test('read returns the latest `limit` snapshots of the window, oldest first', (t) => {
  const store = openStore();
  for (let index = 0; index < 10; index += 1)
    store.append(snapshotAt(BASE + index * 1000, { cpu: index }));
  const page = store.read(all, 3);
  t.deepEqual(
    page.items.map((item) => item.system?.cpu_percent),
    [7, 8, 9],
  );
  t.true(page.truncated);
  const window = store.read({ sinceMs: BASE + 2000, untilMs: BASE + 4000 }, 10);
  t.deepEqual(
    window.items.map((item) => item.system?.cpu_percent),
    [2, 3, 4],
  );
  t.false(window.truncated);
});

test('retention: rows older than the age limit go', (t) => {
  const store = openStore();
  for (let index = 0; index < 5; index += 1) store.append(snapshotAt(BASE + index * 60_000));
  const deleted = store.prune({ maxAgeMs: 150_000, maxBytes: 1e12 }, BASE + 4 * 60_000);
  t.is(deleted, 2);
  t.deepEqual(
    store.read(all, 10).items.map((item) => item.timestamp),
    [2, 3, 4].map((index) => new Date(BASE + index * 60_000).toISOString()),
  );
});

test('retention: the oldest rows go until the store is under its size limit', (t) => {
  const store = openStore();
  for (let index = 0; index < 20; index += 1)
    store.append(snapshotAt(BASE + index * 1000, { cpu: index }));
  const { stored_bytes: bytes, samples } = store.stats();
  t.is(samples, 20);
  const limit = Math.floor((bytes / 20) * 5.5);
  store.prune({ maxAgeMs: 1e15, maxBytes: limit }, BASE);
  const after = store.stats();
  t.true(after.stored_bytes <= limit);
  t.true(after.samples >= 4 && after.samples <= 5);
  const cpus = store.read(all, 100).items.map((item) => item.system?.cpu_percent);
  t.is(cpus.at(-1), 19, 'the newest rows stay');
  t.is(store.trackedBytes, after.stored_bytes);
});

test('times, views and summary answer from memory as the table does, across prunes and a reopen', (t) => {
  const file = join(tempDir('stackd-metrics-'), 'h.sqlite');
  const store = new MetricsHistoryStore(openSqlite(file));
  for (let index = 0; index < 20; index += 1)
    store.append(snapshotAt(BASE + index * 1000, { cpu: index }));
  const fromTable = (target: MetricsHistoryStore, limit: number) => {
    const page = target.read(all, limit);
    return {
      times: page.items.map((item) => Date.parse(item.timestamp)),
      truncated: page.truncated,
    };
  };
  t.deepEqual(store.times(all, 5), fromTable(store, 5));
  t.deepEqual(store.times({ sinceMs: BASE + 2000, untilMs: BASE + 4000 }, 10), {
    times: [2, 3, 4].map((index) => BASE + index * 1000),
    truncated: false,
  });
  const views = store.views([BASE + 3000, BASE + 99_000, BASE]);
  t.deepEqual([...views.keys()].sort(), [BASE, BASE + 3000]);
  t.is(views.get(BASE + 3000)?.system?.cpu_percent, 3);
  store.prune({ maxAgeMs: 15_500, maxBytes: 1e12 }, BASE + 20_000);
  const bytes = store.stats().stored_bytes;
  store.prune({ maxAgeMs: 1e15, maxBytes: Math.floor(bytes * 0.7) }, BASE);
  const { samples, stored_bytes } = store.stats();
  const expected = {
    samples,
    stored_bytes,
    oldest_ms: fromTable(store, 100).times[0],
    newest_ms: BASE + 19_000,
  };
  t.deepEqual(store.summary(), expected);
  t.deepEqual(store.times(all, 100), fromTable(store, 100));
  const reopened = new MetricsHistoryStore(openSqlite(file));
  t.deepEqual(reopened.summary(), expected);
  t.deepEqual(reopened.times(all, 3), fromTable(store, 3));
});

test('recorder: stores each new snapshot once and prunes on its own schedule', async (t) => {
  const store = openStore();
  const logs: string[] = [];
  const logger = { debug: (message: string) => logs.push(message) } as unknown as Logger;
  const recorder = new HistoryRecorder(store, { maxAgeMs: 60_000, maxBytes: 1e12 }, logger);
  const old = snapshotAt(BASE);
  t.true(await recorder.record(old, BASE));
  t.false(await recorder.record(old, BASE + 1000), 'the same tick is not stored twice');
  t.false(await recorder.record(null, BASE + 1000));
  t.true(await recorder.record(snapshotAt(BASE + 400_000), BASE + 400_000));
  t.is(store.stats().samples, 1, 'the prune after five minutes removed the expired row');
  t.deepEqual(logs, ['metrics history: pruned 1 snapshots']);
});

test('recorder: writes snapshots in batches at most once a minute; reads and close see them all', async (t) => {
  const file = join(tempDir('stackd-metrics-'), 'h.sqlite');
  const store = new MetricsHistoryStore(openSqlite(file));
  const onDisk = openSqlite(file);
  const written = () =>
    Number(onDisk.get<{ n: number }>('SELECT COUNT(*) AS n FROM metrics_snapshots')?.n);
  const logger = { debug: () => undefined } as unknown as Logger;
  const recorder = new HistoryRecorder(store, { maxAgeMs: 1e12, maxBytes: 1e12 }, logger);
  await recorder.record(snapshotAt(BASE), BASE);
  t.is(written(), 1, 'the first snapshot is written at once');
  for (const offset of [15_000, 30_000, 45_000])
    await recorder.record(snapshotAt(BASE + offset), BASE + offset);
  t.is(written(), 1, 'three snapshots within the minute wait in memory');
  t.is(store.pendingCount, 3);
  const tracked = store.trackedBytes;
  t.is(store.stats().stored_bytes, tracked, 'pending bytes count in the tracked size');
  t.is(written(), 4, 'a read flushes first');
  await recorder.record(snapshotAt(BASE + 60_000), BASE + 60_000);
  t.is(written(), 5, 'a minute after the last batch the next one is written');
  await recorder.record(snapshotAt(BASE + 75_000), BASE + 75_000);
  t.is(written(), 5);
  recorder.close();
  t.is(written(), 6, 'flush (the plugin stopping) writes the rest');
  t.is(store.trackedBytes, store.stats().stored_bytes);
});

test('series from the store: gauge buckets, counter rates with a reset, process values', (t) => {
  const store = openStore();
  const reads = [0, 1000, 3000, 500, 1500, 2500];
  reads.forEach((diskRead, index) =>
    store.append(
      snapshotAt(BASE + index * 10_000, {
        cpu: index * 10,
        diskRead,
        processes: { Web: { cpu: index, rss: 1000 + index } },
      }),
    ),
  );
  const since = BASE / 1000;
  const until = since + 60;
  const cpu = runSeriesQuery(
    store,
    { metric: 'cpu_percent', since, until, bucket_sec: 20 },
    '/data',
  );
  t.is(cpu.kind, 'gauge');
  t.deepEqual(
    cpu.points.map((point) => [point.timestamp - since, point.value, point.samples]),
    [
      [0, 5, 2],
      [20, 25, 2],
      [40, 45, 2],
    ],
  );
  const rate = runSeriesQuery(
    store,
    { metric: 'disk_read_rate', since, until, bucket_sec: 10 },
    '/data',
  );
  t.is(rate.unit, 'bytes_per_sec');
  t.deepEqual(
    rate.points.map((point) => point.value),
    [100, 200, 50, 100, 100],
    'the drop 3000 → 500 is a reset that counts 500 bytes',
  );
  const web = runSeriesQuery(
    store,
    { metric: 'process_rss_bytes', process_name: 'Web', since, until, bucket_sec: 60 },
    '/data',
  );
  t.deepEqual(
    web.points.map((point) => [point.value, point.min, point.max]),
    [[1002.5, 1000, 1005]],
  );
  const disk = runSeriesQuery(store, { metric: 'disk_percent', since, until }, '/data');
  t.is(disk.path, '/data');
  t.is(disk.points[0]?.value, 45);
  const error = t.throws(() =>
    runSeriesQuery(store, { metric: 'process_cpu_percent', since, until }, '/data'),
  );
  t.is((error as { field?: string } | undefined)?.field, 'process_name');
  t.deepEqual(runSeriesQuery(null, { metric: 'cpu_percent', since, until }, null).points, []);
});
