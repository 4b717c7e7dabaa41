/**
 * Deliveries and cooldowns in SQLite (`<data-dir>/notifications/notifications.sqlite`,
 * docs/original-product.md §10). A locked database (another writer, a stuck lock) never stops the plugin:
 * the store turns unavailable, queue and history routes answer 503, and it is tried again in
 * the background every few seconds so a lock never costs a restart.
 */
import { randomUUID } from 'node:crypto';
import { UnavailableError, type Database } from '../../../sdk/index.js';
import { STORAGE_LOCKED } from '../errors.js';
import {
  SCHEMA,
  toRecord,
  type DeliveryRecord,
  type DeliveryStatus,
  type NewDelivery,
  type Row,
} from './delivery-rows.js';

export type { DeliveryRecord, DeliveryStatus, NewDelivery } from './delivery-rows.js';

const LOCKED = /locked|busy/i;
const UNAVAILABLE =
  'Notification storage is temporarily unavailable because its SQLite database is locked. stackd retries automatically.';

const nowSec = (): number => Date.now() / 1000;

/** The delivery database, or its absence while locked. */
export class DeliveryStore {
  private db: Database | undefined;
  private locked = false;
  private lastTry = 0;

  constructor(
    private readonly open: () => Database,
    private readonly onLocked: (message: string) => void,
    /** Told each time a delivery enters a status (the exposition's delivery counter). */
    private readonly onStatus: (status: DeliveryStatus) => void = () => undefined,
  ) {}

  /** Try to (re)open; false while locked. Never throws for a lock. */
  tryOpen(): boolean {
    if (this.db !== undefined) return true;
    this.lastTry = Date.now();
    try {
      const db = this.open();
      db.exec(SCHEMA);
      // A crash mid-delivery left rows in flight: they go out again (at least once).
      this.db = db;
      return true;
    } catch (error) {
      if (!LOCKED.test(String(error))) throw error;
      this.onLocked(String(error));
      return false;
    }
  }

  /** Whether the database is usable now (a locked one is retried at most every 5 s). */
  get available(): boolean {
    if (Date.now() - this.lastTry >= 5_000) {
      if (this.db === undefined) this.tryOpen();
      else if (this.locked) this.probe();
    }
    return this.db !== undefined && !this.locked;
  }

  /** Still locked? A write lock taken and given back at once tells (the file stays open). */
  private probe(): void {
    this.lastTry = Date.now();
    try {
      this.db?.exec('BEGIN IMMEDIATE; ROLLBACK;');
      this.locked = false;
    } catch (error) {
      if (!LOCKED.test(String(error))) throw error;
    }
  }

  private use<T>(work: (db: Database) => T): T {
    if (!this.available) throw new UnavailableError(STORAGE_LOCKED, UNAVAILABLE);
    try {
      return work(this.db as Database);
    } catch (error) {
      if (LOCKED.test(String(error))) {
        // Kept open: reopening would clear the other writer's lock as if it were stale.
        this.locked = true;
        this.lastTry = Date.now();
        this.onLocked(String(error));
        throw new UnavailableError(STORAGE_LOCKED, UNAVAILABLE);
      }
      throw error;
    }
  }

  insert(delivery: NewDelivery): DeliveryRecord {
    const id = randomUUID().replace(/-/g, '');
    const now = nowSec();
    return this.use((db) => {
      db.run(
        `INSERT INTO deliveries (id, event_id, destination_id, destination_name, event_type, severity, title, body,
           service_name, status, attempts, forced, allow_disabled, next_attempt_at, metadata_json, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          delivery.event_id,
          delivery.destination_id,
          delivery.destination_name,
          delivery.event_type,
          delivery.severity,
          delivery.title,
          delivery.body,
          delivery.service_name,
          delivery.status,
          delivery.forced ? 1 : 0,
          delivery.allowDisabled ? 1 : 0,
          delivery.status === 'queued' ? now : null,
          JSON.stringify(delivery.metadata),
          now,
          now,
        ],
      );
      this.onStatus(delivery.status);
      return toRecord(db.get<Row>('SELECT * FROM deliveries WHERE id = ?', [id]) as Row);
    });
  }

  /** Due rows (queued or retrying, next attempt reached), oldest first. */
  due(
    limit: number,
    exclude: ReadonlySet<string>,
  ): Array<DeliveryRecord & { allowDisabled: boolean }> {
    return this.use((db) =>
      db
        .all<Row>(
          `SELECT * FROM deliveries WHERE status IN ('queued', 'retrying') AND next_attempt_at <= ?
           ORDER BY next_attempt_at, created_at LIMIT ?`,
          [nowSec(), limit + exclude.size],
        )
        .filter((row) => !exclude.has(row.id))
        .slice(0, limit)
        .map((row) => ({ ...toRecord(row), allowDisabled: row.allow_disabled === 1 })),
    );
  }

  /** The time of the next due row, or null. */
  nextDueAt(): number | null {
    if (!this.available) return null;
    const row = this.use((db) =>
      db.get<{ at: number | null }>(
        `SELECT MIN(next_attempt_at) AS at FROM deliveries WHERE status IN ('queued', 'retrying')`,
      ),
    );
    return row?.at ?? null;
  }

  completed(id: string, attempts: number): void {
    this.onStatus('completed');
    const now = nowSec();
    this.use((db) =>
      db.run(
        `UPDATE deliveries SET status = 'completed', attempts = ?, error = NULL, sent_at = ?, updated_at = ?, next_attempt_at = NULL WHERE id = ?`,
        [attempts, now, now, id],
      ),
    );
  }

  retry(id: string, attempts: number, error: string, nextAt: number): void {
    this.onStatus('retrying');
    this.use((db) =>
      db.run(
        `UPDATE deliveries SET status = 'retrying', attempts = ?, error = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?`,
        [attempts, error, nextAt, nowSec(), id],
      ),
    );
  }

  failed(id: string, attempts: number, error: string): void {
    this.onStatus('failed');
    this.use((db) =>
      db.run(
        `UPDATE deliveries SET status = 'failed', attempts = ?, error = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ?`,
        [attempts, error, nowSec(), id],
      ),
    );
  }

  /** Put off a row without spending an attempt (its destination is disabled). */
  postpone(id: string, nextAt: number): void {
    this.use((db) =>
      db.run(`UPDATE deliveries SET next_attempt_at = ?, updated_at = ? WHERE id = ?`, [
        nextAt,
        nowSec(),
        id,
      ]),
    );
  }

  get(id: string): DeliveryRecord | undefined {
    return this.use((db) => {
      const row = db.get<Row>('SELECT * FROM deliveries WHERE id = ?', [id]);
      return row === undefined ? undefined : toRecord(row);
    });
  }

  history(limit: number, status?: string, eventType?: string): DeliveryRecord[] {
    return this.use((db) =>
      db
        .all<Row>(
          `SELECT * FROM deliveries WHERE (? IS NULL OR status = ?) AND (? IS NULL OR event_type = ?)
           ORDER BY created_at DESC, rowid DESC LIMIT ?`,
          [status ?? null, status ?? null, eventType ?? null, eventType ?? null, limit],
        )
        .map(toRecord),
    );
  }

  /** Delete finished rows (everything but queued and retrying). */
  clearHistory(): number {
    return this.use(
      (db) => db.run(`DELETE FROM deliveries WHERE status NOT IN ('queued', 'retrying')`).changes,
    );
  }

  /** Drop finished rows older than the retention. */
  prune(retentionDays: number): number {
    return this.use(
      (db) =>
        db.run(
          `DELETE FROM deliveries WHERE status NOT IN ('queued', 'retrying') AND created_at < ?`,
          [nowSec() - retentionDays * 86_400],
        ).changes,
    );
  }

  /** Seconds since the last send under a cooldown key, or null. */
  lastSent(key: string): number | null {
    return this.use(
      (db) =>
        db.get<{ last_sent_at: number }>('SELECT last_sent_at FROM cooldowns WHERE state_key = ?', [
          key,
        ])?.last_sent_at ?? null,
    );
  }

  markSent(key: string): void {
    this.use((db) =>
      db.run(
        'INSERT INTO cooldowns (state_key, last_sent_at) VALUES (?, ?) ON CONFLICT(state_key) DO UPDATE SET last_sent_at = excluded.last_sent_at',
        [key, nowSec()],
      ),
    );
  }
}
