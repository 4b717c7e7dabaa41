/**
 * The authentication mode (docs/decisions.md §8): whether auth is enabled and whether the
 * setup wizard was skipped. Kept in the plugin's SQLite database next to the users, so it
 * survives restarts; read from memory on every request.
 */
import type { Database } from '../../../sdk/index.js';

/** The two persisted flags. */
export interface AuthMode {
  readonly enabled: boolean;
  readonly setupSkipped: boolean;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS auth_state (
  key   TEXT PRIMARY KEY NOT NULL,
  value INTEGER NOT NULL CHECK (value IN (0, 1))
);`;

/** Reads once at construction, writes through on every change. */
export class AuthStateStore {
  private current: AuthMode;

  constructor(private readonly db: Database) {
    db.exec(SCHEMA);
    const rows = db.all<{ key: string; value: number }>('SELECT key, value FROM auth_state');
    const flag = (key: string): boolean => rows.some((row) => row.key === key && row.value === 1);
    // A fresh install starts with auth disabled: the setup wizard turns it on with the first user.
    this.current = { enabled: flag('enabled'), setupSkipped: flag('setup_skipped') };
  }

  get mode(): AuthMode {
    return this.current;
  }

  /** Change one or both flags and persist them (one statement: atomic, and safe inside a transaction). */
  set(change: Partial<AuthMode>): void {
    const next = { ...this.current, ...change };
    this.db.run(
      `INSERT INTO auth_state (key, value) VALUES ('enabled', ?), ('setup_skipped', ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [next.enabled ? 1 : 0, next.setupSkipped ? 1 : 0],
    );
    this.current = next;
  }
}
