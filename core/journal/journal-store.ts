/**
 * The journal's storage: one SQLite table whose AUTOINCREMENT rowid is the cursor (SQLite never
 * reuses it, even after retention deleted every row, so cursors keep rising across restarts).
 *
 * Group commit: an event published while no commit is due is committed on the next turn of the
 * event loop, together with everything else published in the same turn; commits are at least
 * `commitIntervalMs` apart, so events arriving in between wait for the next one. A quiet journal
 * thus answers within a turn, and a crash loop of many processes still costs at most
 * 1000 / commitIntervalMs commits (and their fsyncs) per second. Listeners hear of events only
 * after their commit: whatever a client was sent survives a SIGKILL of the host.
 */
import type { JournalEvent } from '../../sdk/journal.js';
import type { CoreDatabase } from '../storage/sqlite-store.js';
import { CommitPacer } from './commit-pacer.js';
import { closeJournalFile, openJournalFile, type OpenJournal } from './journal-file.js';
import { pruneEvents } from './journal-retention.js';
import { conditions, FRAME_SEPARATOR, WIRE_COLUMNS, WIRE_JSON, wireJson } from './journal-sql.js';
import type { JournalQuery } from './journal-sql.js';

/** Retention and commit pacing (`stackd.journal`). */
export interface JournalSettings {
  /** The least time between two commits; also the most a SIGKILL loses, plus one commit. */
  readonly commitIntervalMs: number;
  readonly maxEvents: number;
  readonly maxAgeMs: number;
}

/** A page query (defined beside the SQL it becomes). */
export type { JournalQuery } from './journal-sql.js';

/** A committed event with its wire form, serialized once for every reader. */
export interface StoredEvent {
  readonly cursor: number;
  readonly kind: string;
  readonly subject: string;
  /** The event as JSON text, the same object GET /events answers. */
  readonly json: string;
}

/** The journal's size and settings (/health detail). */
export interface JournalSize {
  readonly events: number;
  readonly bytes: number;
  readonly oldest_cursor: number | null;
  readonly newest_cursor: number;
  readonly commits: number;
  readonly max_events: number;
  readonly max_age_days: number;
  readonly commit_interval_ms: number;
}

type Pending = { time: string; kind: string; subject: string; data: string };

// Retention runs at most this often: deleting is cheap but pointless per batch.
const PRUNE_EVERY_MS = 10_000;
/** A failed batch is tried again after this long. */
const RETRY_MS = 1_000;
/** Events kept in memory while writes fail; the oldest go first past this. */
const RETRY_LIMIT = 10_000;

/** The durable event journal. */
export class JournalStore {
  private opened: OpenJournal | undefined;
  private pending: Pending[] = [];
  private readonly pacer: CommitPacer;
  /** The deferred open's own timer: commits keep theirs, whichever comes first. */
  private openTimer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(events: readonly StoredEvent[]) => void>();
  private headCursor = 0;
  private prunedThrough = 0;
  private lastPrune = 0;
  private closed = false;
  /** Commits since the store opened (/health detail, the bench). */
  commits = 0;
  /** Why the last batch failed, until one commits again (for /health). */
  writeFailure: string | null = null;

  /**
   * `deferOpen`: the file is opened by {@link open} or by the first read, not now. Events
   * appended before that wait in memory and are committed as soon as it opens.
   */
  constructor(
    readonly file: string,
    private readonly settings: JournalSettings,
    private readonly onError: (error: unknown) => void,
    options: { readonly deferOpen?: boolean } = {},
  ) {
    this.pacer = new CommitPacer(settings.commitIntervalMs, () => this.flush());
    if (options.deferOpen !== true) this.open();
  }

  /** Open the file now (once), and commit what waited for it. */
  open(): void {
    if (this.opened !== undefined || this.closed) return;
    this.opened = openJournalFile(this.file);
    this.headCursor = this.opened.head;
    this.prunedThrough = this.opened.prunedThrough;
    this.prune(Date.now());
    // What waited for the file, committed before any read of it answers.
    if (this.pending.length > 0) this.flush();
  }

  /**
   * Open the file after `delayMs` (a deferred store): {@link open} commits what was appended
   * meanwhile. A failure is reported like a failed commit and tried again, keeping at most
   * `RETRY_LIMIT` waiting events, as a failing commit does.
   */
  openAfter(delayMs: number): void {
    if (this.opened !== undefined || this.closed) return;
    this.openTimer ??= setTimeout(() => {
      this.openTimer = undefined;
      try {
        this.open();
      } catch (error) {
        this.writeFailure = error instanceof Error ? error.message : String(error);
        this.onError(error);
        this.pending = this.pending.slice(-RETRY_LIMIT);
        this.openAfter(RETRY_MS);
      }
    }, delayMs);
  }

  /** The database, opened now if it was not yet (a read cannot wait). */
  private get db(): CoreDatabase {
    this.open();
    if (this.opened === undefined) throw new Error('event journal closed');
    return this.opened.db;
  }

  /** The highest stored cursor (0 when nothing was ever recorded). */
  get head(): number {
    this.open();
    return this.headCursor;
  }

  /** The highest cursor retention removed: a `since` below it lost events. */
  get expiredThrough(): number {
    this.open();
    return this.prunedThrough;
  }

  /** The oldest retained cursor, or the next cursor when the journal is empty. */
  oldest(): number {
    return (
      this.db.get<{ c: number | null }>('SELECT MIN(cursor) AS c FROM events')?.c ??
      this.headCursor + 1
    );
  }

  /** Queue an event for the next commit. */
  append(kind: string, subject: string, data: unknown): void {
    if (this.closed) return;
    this.pending.push({
      time: new Date().toISOString(),
      kind,
      subject,
      data: JSON.stringify(data),
    });
    // Not open yet: the batch waits for the open, which commits it.
    if (this.opened !== undefined) this.pacer.schedule();
  }

  /** Hear of every committed batch; returns an unsubscribe function. */
  subscribe(listener: (events: readonly StoredEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Commit what is queued in one transaction, then tell the listeners. */
  flush(): void {
    this.pacer.cancel();
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    let committed: StoredEvent[];
    try {
      // Opens the file first when it was deferred: a failure to open is a failed batch too.
      committed = this.db.transaction(() => this.insert(batch));
    } catch (error) {
      this.writeFailure = error instanceof Error ? error.message : String(error);
      this.onError(error);
      // Nothing was sent of this batch: keep it (bounded) and try again, so a full disk that
      // frees up loses no event and /health turns healthy without waiting for a new one.
      this.pending = [...batch, ...this.pending].slice(-RETRY_LIMIT);
      if (!this.closed) this.pacer.retryAfter(RETRY_MS);
      return;
    }
    this.pacer.committed();
    this.commits += 1;
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

  /** Events after `query.since`, oldest first, with their data parsed. */
  read(query: JournalQuery): JournalEvent[] {
    return this.readStored(query).map((event) => JSON.parse(event.json) as JournalEvent);
  }

  /** Events after `query.since`, oldest first, as JSON text (replay sends it as is). */
  readStored(query: JournalQuery): StoredEvent[] {
    const { where, params } = conditions(query);
    return this.db.all<StoredEvent & Record<string, string | number>>(
      `SELECT ${WIRE_COLUMNS} FROM events WHERE ${where} ORDER BY cursor LIMIT ?`,
      params,
    );
  }

  /**
   * Up to `query.limit` events after `query.since` as frames (the JSON text of each), read as a
   * single row: a replay page costs one query and one string, not a conversion per row.
   */
  readFrames(query: JournalQuery): { readonly frames: string[]; readonly last: number } {
    const { where, params } = conditions(query);
    const page = this.db.get<{ n: number; last: number | null; page: string | null }>(
      `SELECT count(*) AS n, max(cursor) AS last, group_concat(json, char(30)) AS page FROM
        (SELECT cursor, ${WIRE_JSON} AS json FROM events WHERE ${where} ORDER BY cursor LIMIT ?)`,
      params,
    );
    if (page === undefined || page.n === 0 || page.page === null)
      return { frames: [], last: query.since };
    return { frames: page.page.split(FRAME_SEPARATOR), last: page.last ?? query.since };
  }

  /** Rows, bytes on disk, the cursors held and the settings (/health detail, the bench). */
  size(): JournalSize {
    const rows = this.db.get<{ n: number; oldest: number | null }>(
      'SELECT COUNT(*) AS n, MIN(cursor) AS oldest FROM events',
    );
    const pages = this.db.get<{ page_count: number }>('PRAGMA page_count')?.page_count ?? 0;
    const pageSize = this.db.get<{ page_size: number }>('PRAGMA page_size')?.page_size ?? 0;
    return {
      events: rows?.n ?? 0,
      bytes: pages * pageSize,
      oldest_cursor: rows?.oldest ?? null,
      newest_cursor: this.headCursor,
      commits: this.commits,
      max_events: this.settings.maxEvents,
      max_age_days: this.settings.maxAgeMs / 86_400_000,
      commit_interval_ms: this.settings.commitIntervalMs,
    };
  }

  /** Flush and close (host stopping); a store never opened and with nothing queued stays so. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.pacer.cancel();
    clearTimeout(this.openTimer);
    this.openTimer = undefined;
    this.listeners.clear();
    const { opened } = this;
    if (opened !== undefined) closeJournalFile(opened, this.onError);
  }

  /** Insert a batch, one run of the prepared statement per event; each run answers its cursor. */
  private insert(batch: readonly Pending[]): StoredEvent[] {
    return batch.map((event) => {
      const { lastInsertRowid } = (this.opened as OpenJournal).insertEvent.run([
        event.time,
        event.kind,
        event.subject,
        event.data,
      ]);
      const cursor = Number(lastInsertRowid);
      return { cursor, kind: event.kind, subject: event.subject, json: wireJson(cursor, event) };
    });
  }

  private prune(now: number): void {
    this.lastPrune = now;
    const cutoffTime = new Date(now - this.settings.maxAgeMs).toISOString();
    const limits = { maxEvents: this.settings.maxEvents, cutoffTime };
    this.prunedThrough = pruneEvents(this.db, this.headCursor, limits) ?? this.prunedThrough;
  }
}
