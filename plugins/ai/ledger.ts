/**
 * The change ledger: configuration changes as redacted metadata only (which keys changed, the
 * reason, the time) — never values. Read back as the bundle's change history.
 */
import {
  isSecretPath,
  type ConfigChange,
  type Database,
  type JsonRecord,
} from '../../sdk/index.js';

export interface LedgerEvent {
  readonly at: number;
  readonly kind: string;
  readonly keys: string[];
  readonly reason: string;
}

/** Dotted key paths (two levels deep) whose JSON differs; secret paths are named, not shown. */
export function changedKeys(
  previous: Readonly<JsonRecord>,
  current: Readonly<JsonRecord>,
): string[] {
  const keys = new Set([...Object.keys(previous), ...Object.keys(current)]);
  const changed: string[] = [];
  for (const key of keys) {
    const before = previous[key];
    const after = current[key];
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    const isRecord = (value: unknown): value is JsonRecord =>
      value !== null && typeof value === 'object' && !Array.isArray(value);
    if (isRecord(before) && isRecord(after)) {
      for (const inner of new Set([...Object.keys(before), ...Object.keys(after)]))
        if (JSON.stringify(before[inner]) !== JSON.stringify(after[inner]))
          changed.push(isSecretPath([key, inner]) ? `${key}.${inner} (secret)` : `${key}.${inner}`);
    } else changed.push(key);
  }
  return changed.sort();
}

export class Ledger {
  constructor(private readonly db: Database) {
    db.exec(
      'CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, at INTEGER NOT NULL, kind TEXT NOT NULL, keys TEXT NOT NULL, reason TEXT NOT NULL)',
    );
  }

  record(kind: string, keys: string[], reason: string | undefined, at = Date.now()): void {
    this.db.run('INSERT INTO events (at, kind, keys, reason) VALUES (?, ?, ?, ?)', [
      at,
      kind,
      JSON.stringify(keys),
      (reason ?? '').slice(0, 200),
    ]);
  }

  recordConfigChange(change: ConfigChange): void {
    const keys = changedKeys(change.previous, change.current);
    if (keys.length > 0) this.record('config_change', keys, change.reason);
  }

  /** The most recent events first. */
  recent(limit = 50): LedgerEvent[] {
    return this.db
      .all<{ at: number; kind: string; keys: string; reason: string }>(
        'SELECT at, kind, keys, reason FROM events ORDER BY id DESC LIMIT ?',
        [limit],
      )
      .map((row) => ({
        at: row.at,
        kind: row.kind,
        keys: JSON.parse(row.keys) as string[],
        reason: row.reason,
      }));
  }
}
