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

  constructor(private readonly db: Database) {
    db.exec(SCHEMA);
    this.storedBytes = this.sumStoredBytes();
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
      }
    });
    this.pending.clear();
    this.pendingBytes = 0;
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
      .map(
        (row) => JSON.parse(inflateRawSync(row.payload).toString('utf8')) as MetricsSnapshotView,
      );
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
    let deleted = this.db.run('DELETE FROM metrics_snapshots WHERE timestamp_ms < ?', [
      now - policy.maxAgeMs,
    ]).changes;
    if (deleted > 0) this.storedBytes = this.sumStoredBytes();
    while (this.storedBytes > policy.maxBytes) {
      const stats = this.stats();
      if (stats.samples === 0) break;
      const average = stats.stored_bytes / stats.samples;
      const excess = Math.ceil((this.storedBytes - policy.maxBytes) / Math.max(1, average));
      deleted += this.db.run(
        'DELETE FROM metrics_snapshots WHERE timestamp_ms IN (SELECT timestamp_ms FROM metrics_snapshots ORDER BY timestamp_ms LIMIT ?)',
        [Math.min(PRUNE_BATCH, Math.max(1, excess))],
      ).changes;
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

  /** Row count, stored bytes and the oldest and newest snapshot times (epoch ms, null when empty). */
  summary(): {
    samples: number;
    stored_bytes: number;
    oldest_ms: number | null;
    newest_ms: number | null;
  } {
    this.flush();
    const row = this.db.get<{
      samples: number;
      bytes: number | null;
      oldest: number | null;
      newest: number | null;
    }>(
      'SELECT COUNT(*) AS samples, SUM(stored_size) AS bytes, MIN(timestamp_ms) AS oldest, MAX(timestamp_ms) AS newest FROM metrics_snapshots',
    );
    const at = (value: number | null | undefined) =>
      value === null || value === undefined ? null : Number(value);
    return {
      samples: Number(row?.samples ?? 0),
      stored_bytes: Number(row?.bytes ?? 0),
      oldest_ms: at(row?.oldest),
      newest_ms: at(row?.newest),
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
