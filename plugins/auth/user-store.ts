/**
 * User accounts in the plugin's SQLite database. Only the scrypt hash is stored; rows leave
 * this module without it unless a caller asks for the credentials to check a login. Calls are
 * synchronous (node-sqlite3-wasm), so a check and the write after it cannot interleave with
 * another request.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../../sdk/index.js';

/** A user as the API shows it. */
export interface UserAccount {
  readonly username: string;
  readonly disabled: boolean;
}

/** A user with the id its tokens carry. */
export interface UserRecord extends UserAccount {
  readonly uid: string;
}

/** A user with the stored password hash, for login only. */
export interface UserCredentials extends UserRecord {
  readonly passwordHash: string;
}

interface UserRow {
  [column: string]: string | number | null;
  username: string;
  uid: string;
  password_hash: string;
  disabled: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  username      TEXT PRIMARY KEY NOT NULL,
  uid           TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  disabled      INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
  created_at    TEXT NOT NULL
);`;

function toRecord(row: UserRow): UserRecord {
  return { username: row.username, uid: row.uid, disabled: row.disabled === 1 };
}

/** CRUD on the `users` table. Usernames compare exactly (case-sensitive). */
export class UserStore {
  constructor(private readonly db: Database) {
    db.exec(SCHEMA);
  }

  /** Every user, by name. */
  list(): UserAccount[] {
    return this.db
      .all<UserRow>('SELECT username, disabled FROM users ORDER BY username')
      .map((row) => ({ username: row.username, disabled: row.disabled === 1 }));
  }

  /** One user without credentials, or undefined. */
  find(username: string): UserRecord | undefined {
    const row = this.db.get<UserRow>(
      'SELECT username, uid, disabled FROM users WHERE username = ?',
      [username],
    );
    return row === undefined ? undefined : toRecord(row);
  }

  /** One user with the password hash, or undefined. */
  findCredentials(username: string): UserCredentials | undefined {
    const row = this.db.get<UserRow>(
      'SELECT username, uid, password_hash, disabled FROM users WHERE username = ?',
      [username],
    );
    return row === undefined ? undefined : { ...toRecord(row), passwordHash: row.password_hash };
  }

  count(): number {
    return Number(this.db.get('SELECT COUNT(*) AS n FROM users')?.n ?? 0);
  }

  activeCount(): number {
    return Number(this.db.get('SELECT COUNT(*) AS n FROM users WHERE disabled = 0')?.n ?? 0);
  }

  /** Insert an active user; false when the name is taken. */
  insert(username: string, passwordHash: string): UserRecord | undefined {
    const uid = randomUUID();
    const result = this.db.run(
      `INSERT INTO users (username, uid, password_hash, disabled, created_at)
       VALUES (?, ?, ?, 0, ?) ON CONFLICT (username) DO NOTHING`,
      [username, uid, passwordHash, new Date().toISOString()],
    );
    return result.changes === 1 ? { username, uid, disabled: false } : undefined;
  }

  /** Set the disabled flag; false when the user does not exist. */
  setDisabled(username: string, disabled: boolean): boolean {
    return (
      this.db.run('UPDATE users SET disabled = ? WHERE username = ?', [disabled ? 1 : 0, username])
        .changes === 1
    );
  }

  /** Delete a user; false when the user does not exist. */
  delete(username: string): boolean {
    return this.db.run('DELETE FROM users WHERE username = ?', [username]).changes === 1;
  }

  /** Run `fn` atomically (checks and writes of one request). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn);
  }
}
