/**
 * Stored snapshots in SQLite: each row keeps the whole snapshot (deflated JSON, for history
 * reads) and its compact series numbers (for series reads). Retention by age and by stored size.
 */
import { inflateRawSync } from 'node:zlib';
import type { Database } from '../../../sdk/index.js';
import type {
  MetricsHistoryPage,
  MetricsSnapshotView,
} from '../../../sdk/contracts/metrics-feed.js';
import type { SeriesRow } from './series-row.js';
import { encodeSnapshot, type EncodedSnapshot } from './snapshot-encoding.js';
import { StoredTimes } from './stored-times.js';

/** A history read window (epoch milliseconds). */
export interface HistoryWindow {
  readonly sinceMs: number;
  readonly untilMs: number;
}

/** Retention limits. */
export interface RetentionPolicy {
  readonly maxAgeMs: number;
  readonly maxBytes: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS metrics_snapshots (
  timestamp_ms INTEGER PRIMARY KEY,
  payload BLOB NOT NULL,
  series TEXT NOT NULL,
  stored_size INTEGER NOT NULL
);`;

/** Rows deleted per statement when pruning by size (keeps each transaction short). */
const PRUNE_BATCH = 1000;

/** Timestamps bound per payload query (far below SQLite's limit on bound parameters). */
const TIMES_PER_QUERY = 1000;

/**
 * The SQLite snapshot store. Calls are synchronous (node-sqlite3-wasm). Appended snapshots wait
 * in memory until {@link flush} writes them in one transaction: each commit costs two fsyncs and
 * a lock, so an idle host writing one row at a time woke the disk for every row. Every read
 * flushes first, so readers never miss a row.
 */
export class MetricsHistoryStore {
  private storedBytes: number;
  private readonly pending = new Map<number, EncodedSnapshot>();
  private pendingBytes = 0;
  private readonly replacedListeners = new Set<(at: number) => void>();
  private readonly written: StoredTimes;

  constructor(private readonly db: Database) {
    db.exec(SCHEMA);
    this.storedBytes = this.sumStoredBytes();
    const rows = db.all<{ timestamp_ms: number }>(
      'SELECT timestamp_ms FROM metrics_snapshots ORDER BY timestamp_ms',
    );
    this.written = new StoredTimes(rows.map((row) => Number(row.timestamp_ms)));
  }

  /** Keep a snapshot for the next flush (a second one with the same timestamp replaces the first). */
  append(snapshot: MetricsSnapshotView): void {
    this.appendEncoded(snapshot.timestamp, encodeSnapshot(snapshot));
  }

  /** Keep a snapshot encoded beforehand (see `encodeSnapshotInTurns`) for the next flush. */
  appendEncoded(timestamp: string, row: EncodedSnapshot): void {
    const at = Date.parse(timestamp);
    this.pendingBytes += row.size - (this.pending.get(at)?.size ?? 0);
    this.pending.set(at, row);
  }

  /** Snapshots appended and not written yet. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Write every pending snapshot in one transaction. */
  flush(): void {
    if (this.pending.size === 0) return;
    const rows = [...this.pending];
    this.db.transaction(() => {
      for (const [at, row] of rows) {
        const replaced = this.db.get<{ stored_size: number }>(
          'SELECT stored_size FROM metrics_snapshots WHERE timestamp_ms = ?',
          [at],
        );
        this.db.run(
          'INSERT OR REPLACE INTO metrics_snapshots (timestamp_ms, payload, series, stored_size) VALUES (?, ?, ?, ?)',
          [at, row.payload, row.series, row.size],
        );
        this.storedBytes += row.size - (replaced?.stored_size ?? 0);
        if (replaced === undefined) this.written.add(at);
        else for (const listener of this.replacedListeners) listener(at);
      }
    });
    this.pending.clear();
    this.pendingBytes = 0;
  }

  /**
   * Be told when a written row is written again with other content (a snapshot appended twice
   * with one timestamp): what was derived from the row's old payload is stale from then on.
   */
  onReplaced(listener: (at: number) => void): () => void {
    this.replacedListeners.add(listener);
    return () => this.replacedListeners.delete(listener);
  }

  /**
   * The times (epoch ms) of the latest `limit` snapshots in the window, oldest first; truncated
   * when more matched. Reads no payload: callers pick the rows they need, then {@link views}.
   */
  times(window: HistoryWindow, limit: number): { times: number[]; truncated: boolean } {
    this.flush();
    return this.written.latest(window.sinceMs, window.untilMs, limit);
  }

  /** The stored snapshots at these times (epoch ms), by time; a time without a row is absent. */
  views(times: readonly number[]): Map<number, MetricsSnapshotView> {
    this.flush();
    const views = new Map<number, MetricsSnapshotView>();
    for (let start = 0; start < times.length; start += TIMES_PER_QUERY) {
      const some = times.slice(start, start + TIMES_PER_QUERY);
      const rows = this.db.all<{ timestamp_ms: number; payload: Uint8Array }>(
        `SELECT timestamp_ms, payload FROM metrics_snapshots WHERE timestamp_ms IN (${some.map(() => '?').join(',')})`,
        some,
      );
      for (const row of rows) views.set(Number(row.timestamp_ms), decodePayload(row.payload));
    }
    return views;
  }

  /** The latest `limit` snapshots in the window, oldest first; truncated when more matched. */
  read(window: HistoryWindow, limit: number): MetricsHistoryPage {
    this.flush();
    const rows = this.db.all<{ payload: Uint8Array }>(
      'SELECT payload FROM metrics_snapshots WHERE timestamp_ms >= ? AND timestamp_ms <= ? ORDER BY timestamp_ms DESC LIMIT ?',
      [window.sinceMs, window.untilMs, limit + 1],
    );
    const truncated = rows.length > limit;
    const items = rows
      .slice(0, limit)
      .reverse()
      .map((row) => decodePayload(row.payload));
    return { items, truncated };
  }

  /** The compact series rows of the window, oldest first, with their epoch-second times. */
  seriesRows(window: HistoryWindow): { at: number; row: SeriesRow }[] {
    this.flush();
    return this.db
      .all<{ timestamp_ms: number; series: string }>(
        'SELECT timestamp_ms, series FROM metrics_snapshots WHERE timestamp_ms >= ? AND timestamp_ms <= ? ORDER BY timestamp_ms',
        [window.sinceMs, window.untilMs],
      )
      .map((row) => ({ at: row.timestamp_ms / 1000, row: JSON.parse(row.series) as SeriesRow }));
  }

  /** Delete snapshots older than the age limit, then the oldest until under the size limit. */
  prune(policy: RetentionPolicy, now = Date.now()): number {
    this.flush();
    const cutoff = now - policy.maxAgeMs;
    let deleted = this.db.run('DELETE FROM metrics_snapshots WHERE timestamp_ms < ?', [
      cutoff,
    ]).changes;
    this.written.dropBefore(cutoff);
    if (deleted > 0) this.storedBytes = this.sumStoredBytes();
    while (this.storedBytes > policy.maxBytes) {
      const stats = this.stats();
      if (stats.samples === 0) break;
      const average = stats.stored_bytes / stats.samples;
      const excess = Math.ceil((this.storedBytes - policy.maxBytes) / Math.max(1, average));
      const batch = this.db.run(
        'DELETE FROM metrics_snapshots WHERE timestamp_ms IN (SELECT timestamp_ms FROM metrics_snapshots ORDER BY timestamp_ms LIMIT ?)',
        [Math.min(PRUNE_BATCH, Math.max(1, excess))],
      ).changes;
      this.written.dropOldest(batch);
      deleted += batch;
      this.storedBytes = this.sumStoredBytes();
    }
    return deleted;
  }

  /** Row count and stored (compressed payload + series) bytes. */
  stats(): { samples: number; stored_bytes: number } {
    this.flush();
    const row = this.db.get<{ samples: number; bytes: number | null }>(
      'SELECT COUNT(*) AS samples, SUM(stored_size) AS bytes FROM metrics_snapshots',
    );
    return { samples: Number(row?.samples ?? 0), stored_bytes: Number(row?.bytes ?? 0) };
  }

  /**
   * Row count, stored bytes and the oldest and newest snapshot times (epoch ms, null when empty),
   * from what the store keeps in memory (the storage status asks often; this asks no query).
   */
  summary(): {
    samples: number;
    stored_bytes: number;
    oldest_ms: number | null;
    newest_ms: number | null;
  } {
    this.flush();
    return {
      samples: this.written.count,
      stored_bytes: this.storedBytes,
      oldest_ms: this.written.oldest,
      newest_ms: this.written.newest,
    };
  }

  /** Stored bytes as tracked, pending ones included (cheap; no query). */
  get trackedBytes(): number {
    return this.storedBytes + this.pendingBytes;
  }

  private sumStoredBytes(): number {
    return this.stats().stored_bytes;
  }
}

function decodePayload(payload: Uint8Array): MetricsSnapshotView {
  return JSON.parse(inflateRawSync(payload).toString('utf8')) as MetricsSnapshotView;
}
