/**
 * The journal's storage: one SQLite table whose AUTOINCREMENT rowid is the cursor (SQLite never
 * reuses it, even after retention deleted every row, so cursors keep rising across restarts).
 * Publishes are batched: one transaction per batch interval, so a crash loop of many processes
 * costs one commit per interval, not one per event. Listeners hear of events only after their
 * batch committed: whatever a client was sent survives a SIGKILL of the host.
 */
import type { Database } from '../../sdk/storage.js';
import type { JournalEvent } from '../../sdk/journal.js';
import { openSqlite } from '../storage/sqlite-store.js';

/** Retention and batching settings (`stackd.journal`). */
export interface JournalSettings {
  readonly batchIntervalMs: number;
  readonly maxEvents: number;
  readonly maxAgeMs: number;
}

/** A page query: events after `since` matching the filters, oldest first. */
export interface JournalQuery {
  readonly since: number;
  readonly kinds?: readonly string[] | undefined;
  readonly subject?: string | undefined;
  readonly limit: number;
}

type Row = { cursor: number; time: string; kind: string; subject: string; data: string };
type Pending = { time: string; kind: string; subject: string; data: string };

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  cursor INTEGER PRIMARY KEY AUTOINCREMENT,
  time TEXT NOT NULL, kind TEXT NOT NULL, subject TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_kind ON events(kind, cursor);
CREATE INDEX IF NOT EXISTS events_subject ON events(subject, cursor);
CREATE TABLE IF NOT EXISTS journal_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);`;

// Retention runs at most this often: deleting is cheap but pointless per batch.
const PRUNE_EVERY_MS = 10_000;

/** The durable event journal. */
/** A failed batch is tried again after this long. */
const RETRY_MS = 1_000;
/** Events kept in memory while writes fail; the oldest go first past this. */
const RETRY_LIMIT = 10_000;

export class JournalStore {
  private readonly db: Database;
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(events: readonly JournalEvent[]) => void>();
  private headCursor: number;
  private prunedThrough: number;
  private lastPrune = 0;
  private closed = false;
  /** Why the last batch failed, until one commits again (for /health). */
  writeFailure: string | null = null;

  constructor(
    readonly file: string,
    private readonly settings: JournalSettings,
    private readonly onError: (error: unknown) => void,
  ) {
    this.db = openSqlite(file);
    this.db.exec(SCHEMA);
    this.headCursor =
      this.db.get<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'events'")?.seq ??
      0;
    this.prunedThrough =
      this.db.get<{ value: number }>("SELECT value FROM journal_meta WHERE key = 'pruned_through'")
        ?.value ?? 0;
    this.prune(Date.now());
  }

  /** The highest stored cursor (0 when nothing was ever recorded). */
  get head(): number {
    return this.headCursor;
  }

  /** The highest cursor retention removed: a `since` below it lost events. */
  get expiredThrough(): number {
    return this.prunedThrough;
  }

  /** The oldest retained cursor, or the next cursor when the journal is empty. */
  oldest(): number {
    return (
      this.db.get<{ c: number | null }>('SELECT MIN(cursor) AS c FROM events')?.c ??
      this.headCursor + 1
    );
  }

  /** Queue an event for the next batch. */
  append(kind: string, subject: string, data: unknown): void {
    if (this.closed) return;
    this.pending.push({
      time: new Date().toISOString(),
      kind,
      subject,
      data: JSON.stringify(data),
    });
    this.timer ??= setTimeout(() => this.flush(), this.settings.batchIntervalMs);
  }

  /** Hear of every committed batch; returns an unsubscribe function. */
  subscribe(listener: (events: readonly JournalEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Commit what is queued in one transaction, then tell the listeners. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    let committed: JournalEvent[];
    try {
      committed = this.db.transaction(() =>
        batch.map((event) => {
          const { lastInsertRowid } = this.db.run(
            'INSERT INTO events (time, kind, subject, data) VALUES (?, ?, ?, ?)',
            [event.time, event.kind, event.subject, event.data],
          );
          return {
            ...event,
            cursor: Number(lastInsertRowid),
            data: JSON.parse(event.data) as unknown,
          };
        }),
      );
    } catch (error) {
      this.writeFailure = error instanceof Error ? error.message : String(error);
      this.onError(error);
      // Nothing was sent of this batch: keep it (bounded) and try again, so a full disk that
      // frees up loses no event and /health turns healthy without waiting for a new one.
      this.pending = [...batch, ...this.pending].slice(-RETRY_LIMIT);
      if (!this.closed) this.timer ??= setTimeout(() => this.flush(), RETRY_MS);
      return;
    }
    this.writeFailure = null;
    this.headCursor = committed[committed.length - 1]?.cursor ?? this.headCursor;
    for (const listener of this.listeners) {
      try {
        listener(committed);
      } catch (error) {
        this.onError(error);
      }
    }
    const now = Date.now();
    if (now - this.lastPrune >= PRUNE_EVERY_MS) this.prune(now);
  }

  /** Events after `query.since`, oldest first. */
  read(query: JournalQuery): JournalEvent[] {
    const where = ['cursor > ?'];
    const params: Array<string | number> = [query.since];
    if (query.kinds !== undefined && query.kinds.length > 0) {
      where.push(`kind IN (${query.kinds.map(() => '?').join(', ')})`);
      params.push(...query.kinds);
    }
    if (query.subject !== undefined) {
      where.push('subject = ?');
      params.push(query.subject);
    }
    params.push(query.limit);
    return this.db
      .all<Row>(
        `SELECT cursor, time, kind, subject, data FROM events WHERE ${where.join(' AND ')} ORDER BY cursor LIMIT ?`,
        params,
      )
      .map((row) => ({ ...row, data: JSON.parse(row.data) as unknown }));
  }

  /** Rows and bytes, for health and the bench. */
  size(): { events: number; bytes: number } {
    const events = this.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events')?.n ?? 0;
    const pages = this.db.get<{ page_count: number }>('PRAGMA page_count')?.page_count ?? 0;
    const pageSize = this.db.get<{ page_size: number }>('PRAGMA page_size')?.page_size ?? 0;
    return { events, bytes: pages * pageSize };
  }

  /** Flush and close (host stopping). */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.listeners.clear();
    this.db.close();
  }

  private prune(now: number): void {
    this.lastPrune = now;
    const cutoffTime = new Date(now - this.settings.maxAgeMs).toISOString();
    const cutoffCursor = this.headCursor - this.settings.maxEvents;
    const through =
      this.db.get<{ c: number | null }>(
        'SELECT MAX(cursor) AS c FROM events WHERE cursor <= ? OR time < ?',
        [cutoffCursor, cutoffTime],
      )?.c ?? null;
    if (through === null) return;
    this.db.transaction(() => {
      this.db.run('DELETE FROM events WHERE cursor <= ?', [through]);
      this.db.run(
        "INSERT INTO journal_meta (key, value) VALUES ('pruned_through', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [through],
      );
    });
    this.prunedThrough = through;
  }
}
