/**
 * The delivery table's shapes: the row as SQLite holds it, the record history shows (never a URL
 * or header), a delivery to insert, and the schema both tables are created with.
 */
import type { SqlRow } from '../../../sdk/index.js';

/** Delivery statuses (docs/decisions.md §22). */
export type DeliveryStatus = 'queued' | 'retrying' | 'completed' | 'failed' | 'suppressed';

/** A delivery row as history shows it (never a URL or header). */
export interface DeliveryRecord {
  readonly id: string;
  readonly event_id: string;
  readonly destination_id: string;
  readonly destination_name: string;
  readonly event_type: string;
  readonly severity: string;
  readonly title: string;
  readonly body: string;
  readonly service_name: string | null;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly forced: boolean;
  readonly next_attempt_at: number | null;
  readonly error: string | null;
  readonly metadata: Record<string, unknown>;
  readonly created_at: number;
  readonly updated_at: number;
  readonly sent_at: number | null;
}

export interface Row extends SqlRow {
  id: string;
  event_id: string;
  destination_id: string;
  destination_name: string;
  event_type: string;
  severity: string;
  title: string;
  body: string;
  service_name: string | null;
  status: string;
  attempts: number;
  forced: number;
  allow_disabled: number;
  next_attempt_at: number | null;
  error: string | null;
  metadata_json: string;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (
  id TEXT PRIMARY KEY NOT NULL,
  event_id TEXT NOT NULL,
  destination_id TEXT NOT NULL,
  destination_name TEXT NOT NULL,
  event_type TEXT NOT NULL,
  severity TEXT NOT NULL,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  service_name TEXT,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  forced INTEGER NOT NULL DEFAULT 0,
  allow_disabled INTEGER NOT NULL DEFAULT 0,
  next_attempt_at REAL,
  error TEXT,
  metadata_json TEXT NOT NULL DEFAULT '{}',
  created_at REAL NOT NULL,
  updated_at REAL NOT NULL,
  sent_at REAL
);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS deliveries_created ON deliveries (created_at DESC);
CREATE TABLE IF NOT EXISTS cooldowns (
  state_key TEXT PRIMARY KEY NOT NULL,
  last_sent_at REAL NOT NULL
);`;

export function toRecord(row: Row): DeliveryRecord {
  return {
    id: row.id,
    event_id: row.event_id,
    destination_id: row.destination_id,
    destination_name: row.destination_name,
    event_type: row.event_type,
    severity: row.severity,
    title: row.title,
    body: row.body,
    service_name: row.service_name,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    forced: row.forced === 1,
    next_attempt_at: row.next_attempt_at,
    error: row.error,
    metadata: JSON.parse(row.metadata_json) as Record<string, unknown>,
    created_at: row.created_at,
    updated_at: row.updated_at,
    sent_at: row.sent_at,
  };
}

/** A delivery to insert. */
export type NewDelivery = Pick<
  DeliveryRecord,
  | 'event_id'
  | 'destination_id'
  | 'destination_name'
  | 'event_type'
  | 'severity'
  | 'title'
  | 'body'
  | 'service_name'
  | 'forced'
  | 'metadata'
> & {
  readonly status: 'queued' | 'suppressed';
  readonly allowDisabled: boolean;
};
