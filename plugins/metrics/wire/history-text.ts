/**
 * The history routes' answers written from each stored snapshot's wire text, kept between reads.
 *
 * A stored snapshot never changes, but every read used to inflate, parse, reshape and serialize
 * each one again: at a thousand processes a snapshot is ~280 KB of JSON, and one history read of
 * a few snapshots cost the host ~55 ms of CPU. Here each snapshot is turned into its wire text
 * once; an answer is those texts joined into the JSON array, around a small part serialized per
 * read (the chart series of `history_series` come from a few numbers kept beside each text).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { JSON_CONTENT_TYPE, jsonTextReply, rawReply, type RawReply } from '../../../sdk/index.js';
import type { MetricsSnapshotView } from '../../../sdk/contracts/metrics-feed.js';
import type { HistoryWindow, MetricsHistoryStore } from '../history/history-store.js';
import { toDashboardSnapshot } from './dashboard-snapshot.js';
import {
  chartPoint,
  keptPoints,
  seriesRest,
  type ChartPoint,
  type HistorySeriesRequest,
} from './history-series.js';

/** One stored snapshot in wire form. */
interface WireEntry {
  readonly at: number;
  /** JSON of `toDashboardSnapshot` of the snapshot. */
  readonly text: Buffer;
  readonly chart: ChartPoint;
}

/**
 * Wire texts kept at most (bytes): a few dozen snapshots at a thousand processes, hundreds at
 * fifty. The newest are kept, since every read ends at the newest snapshots of its window.
 */
export const WIRE_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * Each route's last answer up to this size is kept whole: the dashboard asks again with the same
 * window, and the answer changes only when a snapshot is stored. Larger answers are streamed with
 * backpressure instead of joined into one buffer (a fresh buffer of several MB per answer cost
 * more in page faults than the copy itself).
 */
const KEEP_ANSWER_BYTES = 4 * 1024 * 1024;

/** Wire texts of one store's snapshots by time (epoch ms), bounded by bytes, newest kept. */
export class HistoryWireCache {
  private store: MetricsHistoryStore | null = null;
  private stopListening: () => void = () => undefined;
  private readonly entries = new Map<number, WireEntry>();
  private bytes = 0;
  /** By route: the last answer and what it was made of (entry times and the text after them). */
  private readonly answers = new Map<string, { key: string; body: Buffer }>();

  constructor(
    private readonly maxBytes = WIRE_CACHE_BYTES,
    private readonly keepAnswerBytes = KEEP_ANSWER_BYTES,
  ) {}

  /** Wire entries of the snapshots at `times`, in that order (missing rows are left out). */
  entriesOf(store: MetricsHistoryStore, times: readonly number[]): WireEntry[] {
    this.use(store);
    const missing = times.filter((at) => !this.entries.has(at));
    const fresh =
      missing.length === 0 ? new Map<number, MetricsSnapshotView>() : store.views(missing);
    const found: WireEntry[] = [];
    for (const at of times) {
      let entry = this.entries.get(at);
      const view: MetricsSnapshotView | undefined = fresh.get(at);
      if (entry === undefined && view !== undefined) {
        entry = {
          at,
          text: Buffer.from(JSON.stringify(toDashboardSnapshot(view))),
          chart: chartPoint(view),
        };
        this.keep(entry);
      }
      if (entry !== undefined) found.push(entry);
    }
    return found;
  }

  /** Bytes of wire text kept. */
  get keptBytes(): number {
    return this.bytes;
  }

  /** The answer of `route` made of `entries` and `tail`: the last one again when unchanged. */
  answer(route: string, entries: readonly WireEntry[], tail: string): RawReply {
    const key = `${entries.map((entry) => entry.at).join(',')}|${tail}`;
    const last = this.answers.get(route);
    if (last?.key === key) return jsonTextReply(200, [last.body]);
    const parts = answerParts(entries, tail);
    const bytes = entries.reduce((sum, entry) => sum + entry.text.byteLength, 0);
    if (bytes > this.keepAnswerBytes) {
      this.answers.delete(route);
      return rawReply(200, { 'content-type': JSON_CONTENT_TYPE }, chunksOf(parts));
    }
    const body = Buffer.concat(
      parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)),
    );
    this.answers.set(route, { key, body });
    return jsonTextReply(200, [body]);
  }

  private use(store: MetricsHistoryStore): void {
    if (store === this.store) return;
    this.stopListening();
    this.answers.clear();
    this.entries.clear();
    this.bytes = 0;
    this.store = store;
    this.stopListening = store.onReplaced((at) => this.forget(at));
  }

  private keep(entry: WireEntry): void {
    const size = entry.text.byteLength;
    if (size > this.maxBytes) return;
    while (this.bytes + size > this.maxBytes) {
      const oldest = Math.min(...this.entries.keys());
      // Older than everything kept: it is the one to go.
      if (entry.at < oldest) return;
      this.forget(oldest);
    }
    this.entries.set(entry.at, entry);
    this.bytes += size;
  }

  private forget(at: number): void {
    const entry = this.entries.get(at);
    if (entry === undefined) return;
    this.entries.delete(at);
    this.bytes -= entry.text.byteLength;
    this.answers.clear();
  }
}

/** `{"items":[…],…}`: the items' texts joined into the array, `tail` (an object's JSON) after. */
function answerParts(entries: readonly WireEntry[], tail: string): (string | Buffer)[] {
  const parts: (string | Buffer)[] = ['{"items":['];
  entries.forEach((entry, index) => {
    if (index > 0) parts.push(',');
    parts.push(entry.text);
  });
  parts.push(tail === '{}' ? ']}' : `],${tail.slice(1)}`);
  return parts;
}

/** The parts one by one, letting other requests in between (an answer may be many MB). */
async function* chunksOf(parts: readonly (string | Buffer)[]): AsyncIterable<Uint8Array> {
  for (const part of parts) {
    yield typeof part === 'string' ? Buffer.from(part) : part;
    await nextTurn();
  }
}

/** GET /metrics/history: the latest `limit` snapshots of the window, oldest first. */
export function historyReply(
  cache: HistoryWireCache,
  store: MetricsHistoryStore | null,
  window: HistoryWindow,
  limit: number,
): RawReply {
  if (store === null) return jsonTextReply(200, '{"items":[],"truncated":false}');
  const { times, truncated } = store.times(window, limit);
  return cache.answer('history', cache.entriesOf(store, times), JSON.stringify({ truncated }));
}

/** GET /metrics/history_series: the same payload as `historySeries`, from the wire texts. */
export function historySeriesReply(
  cache: HistoryWireCache,
  store: MetricsHistoryStore | null,
  window: HistoryWindow,
  limit: number,
  request: HistorySeriesRequest,
): RawReply {
  const { times, truncated } =
    store === null ? { times: [], truncated: false } : store.times(window, limit);
  const kept = keptPoints(
    times.map((at) => ({ at, epoch: at / 1000 })),
    request,
  );
  const entries =
    store === null
      ? []
      : cache.entriesOf(
          store,
          kept.map(({ at }) => at),
        );
  const points = entries.map((entry) => ({ epoch: entry.at / 1000, chart: entry.chart }));
  return cache.answer(
    'history_series',
    entries,
    JSON.stringify(seriesRest(points, truncated, request)),
  );
}
