import test from 'ava';
import { join } from 'node:path';
import { openSqlite } from '../../../core/storage/sqlite-store.js';
import { tempDir } from '../../helpers/start-host.js';
import { MetricsHistoryStore } from '../../../plugins/metrics/history/history-store.js';
import { toDashboardSnapshot } from '../../../plugins/metrics/wire/dashboard-snapshot.js';
import {
  historySeries,
  type HistorySeriesRequest,
} from '../../../plugins/metrics/wire/history-series.js';
import {
  historyReply,
  historySeriesReply,
  HistoryWireCache,
} from '../../../plugins/metrics/wire/history-text.js';
import { LatestSnapshotText } from '../../../plugins/metrics/wire/latest-text.js';
import type { RawReply } from '../../../sdk/index.js';
import { snapshotAt } from './snapshot-factory.js';

const BASE = Date.UTC(2026, 0, 1);
const all = { sinceMs: 0, untilMs: Number.MAX_SAFE_INTEGER };
const openStore = () =>
  new MetricsHistoryStore(openSqlite(join(tempDir('stackd-metrics-'), 'h.sqlite')));

/** The whole body of a reply as text, whatever form it was given in. */
async function bodyText(reply: RawReply): Promise<string> {
  const { body } = reply;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  const chunks: Buffer[] = [];
  if (Array.isArray(body))
    for (const part of body as readonly (string | Uint8Array)[]) chunks.push(Buffer.from(part));
  else for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** A store with `count` snapshots 15 s apart, counters growing, two processes each. */
function filledStore(count: number): MetricsHistoryStore {
  const store = openStore();
  for (let index = 0; index < count; index += 1)
    store.append(
      snapshotAt(BASE + index * 15_000, {
        cpu: index,
        diskRead: index * 1000,
        rx: index % 7 === 6 ? 0 : index * 500,
        processes: { Web: { cpu: index / 2, rss: 1024 * index }, 'Db "x"': { cpu: 1, rss: 5 } },
      }),
    );
  return store;
}

test('history: the answer is the stored snapshots in wire form, as the parsed path gives them', async (t) => {
  const store = filledStore(12);
  const cache = new HistoryWireCache();
  for (const [window, limit] of [
    [all, 500],
    [all, 5],
    [{ sinceMs: BASE + 30_000, untilMs: BASE + 90_000 }, 500],
    [{ sinceMs: BASE + 30_000, untilMs: BASE + 90_000 }, 2],
    [{ sinceMs: BASE - 60_000, untilMs: BASE - 1 }, 10],
  ] as const) {
    const page = store.read(window, limit);
    const text = await bodyText(historyReply(cache, store, window, limit));
    t.deepEqual(JSON.parse(text), {
      items: page.items.map(toDashboardSnapshot),
      truncated: page.truncated,
    });
  }
  t.deepEqual(JSON.parse(await bodyText(historyReply(cache, null, all, 10))), {
    items: [],
    truncated: false,
  });
});

test('history_series: the same payload as from parsed snapshots, whatever the buckets and points', async (t) => {
  const store = filledStore(40);
  const cache = new HistoryWireCache();
  const since = BASE / 1000 - 10;
  const until = BASE / 1000 + 40 * 15;
  const requests: HistorySeriesRequest[] = [
    { since, until, maxPoints: 600 },
    { since, until, maxPoints: 600, bucketSeconds: 40 },
    { since, until, maxPoints: 7 },
    { since: since + 200, until: until - 100, maxPoints: 600, bucketSeconds: 5 },
  ];
  for (const request of requests)
    for (const limit of [5000, 9]) {
      const window = { sinceMs: request.since * 1000, untilMs: request.until * 1000 };
      const page = store.read(window, limit);
      const text = await bodyText(historySeriesReply(cache, store, window, limit, request));
      t.deepEqual(JSON.parse(text), historySeries(page.items, page.truncated, request));
    }
});

test('an answer is kept until a snapshot is stored, and a row written again is read again', async (t) => {
  const store = filledStore(3);
  const cache = new HistoryWireCache();
  const kept = (reply: RawReply) => (reply.body as readonly Uint8Array[])[0];
  const first = kept(historyReply(cache, store, all, 10));
  t.is(kept(historyReply(cache, store, all, 10)), first, 'the same bytes, not made again');
  store.append(snapshotAt(BASE + 3 * 15_000, { cpu: 77 }));
  const grown = JSON.parse(await bodyText(historyReply(cache, store, all, 10))) as {
    items: { system: { cpu_percent: number } }[];
  };
  t.deepEqual(
    grown.items.map((item) => item.system.cpu_percent),
    [0, 1, 2, 77],
  );
  // The same time written again with other figures: nothing kept from the old row survives.
  store.append(snapshotAt(BASE + 15_000, { cpu: 55 }));
  const again = JSON.parse(await bodyText(historyReply(cache, store, all, 10))) as typeof grown;
  t.deepEqual(
    again.items.map((item) => item.system.cpu_percent),
    [0, 55, 2, 77],
  );
});

test('the texts kept stay under their byte limit; older snapshots are made again when read', async (t) => {
  const store = filledStore(30);
  const one = Buffer.byteLength(JSON.stringify(toDashboardSnapshot(store.read(all, 1).items[0]!)));
  const cache = new HistoryWireCache(one * 5.5, 0);
  const page = store.read(all, 30);
  const expected = { items: page.items.map(toDashboardSnapshot), truncated: false };
  for (let round = 0; round < 2; round += 1) {
    const reply = historyReply(cache, store, all, 30);
    // Larger than the answers kept whole: streamed.
    t.false(Array.isArray(reply.body));
    t.deepEqual(JSON.parse(await bodyText(reply)), expected);
    t.true(cache.keptBytes <= one * 5.5);
    t.true(cache.keptBytes >= one * 4);
  }
});

test('GET /metrics text: the snapshot in wire form with its age, written once per snapshot', (t) => {
  const latest = new LatestSnapshotText();
  const view = snapshotAt(BASE, { cpu: 12, processes: { Web: { cpu: 1, rss: 2 } } });
  const parse = (reply: RawReply) =>
    JSON.parse(
      Buffer.concat(
        (reply.body as (string | Uint8Array)[]).map((part) => Buffer.from(part)),
      ).toString(),
    ) as unknown;
  t.deepEqual(parse(latest.reply(view, BASE + 1234.4)), {
    ...toDashboardSnapshot(view),
    age_ms: 1234,
  });
  t.deepEqual(parse(latest.reply(view, BASE - 50)), { ...toDashboardSnapshot(view), age_ms: 0 });
  const next = snapshotAt(BASE + 2000, { cpu: 13 });
  t.deepEqual(parse(latest.reply(next, BASE + 2000)), { ...toDashboardSnapshot(next), age_ms: 0 });
});
