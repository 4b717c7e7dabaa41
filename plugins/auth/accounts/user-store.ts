/**
 * User accounts in the plugin's SQLite database. Only the scrypt hash is stored; rows leave
 * this module without it unless a caller asks for the credentials to check a login. Calls are
 * synchronous (node-sqlite3-wasm), so a check and the write after it cannot interleave with
 * another request.
 *
 * Every authenticated request looks its user up, and a query through the wasm SQLite costs
 * about a millisecond, so users (without hashes) are mirrored in memory. This store is the
 * only writer of the table: the mirror changes with each write and is reloaded when a
 * transaction rolls back.
 */
import { randomUUID } from 'node:crypto';
import { isoTime } from '../../../sdk/index.js';
import type { Database } from '../../../sdk/index.js';

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
  private mirror = new Map<string, UserRecord>();

  constructor(private readonly db: Database) {
    db.exec(SCHEMA);
    this.reload();
  }

  /** Every user, by name. */
  list(): UserAccount[] {
    return [...this.mirror.values()]
      .sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0))
      .map((user) => ({ username: user.username, disabled: user.disabled }));
  }

  /** One user without credentials, or undefined. */
  find(username: string): UserRecord | undefined {
    return this.mirror.get(username);
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
    return this.mirror.size;
  }

  activeCount(): number {
    let active = 0;
    for (const user of this.mirror.values()) if (!user.disabled) active += 1;
    return active;
  }

  /** Insert an active user; false when the name is taken. */
  insert(username: string, passwordHash: string): UserRecord | undefined {
    const uid = randomUUID();
    const result = this.db.run(
      `INSERT INTO users (username, uid, password_hash, disabled, created_at)
       VALUES (?, ?, ?, 0, ?) ON CONFLICT (username) DO NOTHING`,
      [username, uid, passwordHash, isoTime()],
    );
    if (result.changes !== 1) return undefined;
    const user = { username, uid, disabled: false };
    this.mirror.set(username, user);
    return user;
  }

  /** Set the disabled flag; false when the user does not exist. */
  setDisabled(username: string, disabled: boolean): boolean {
    const changed =
      this.db.run('UPDATE users SET disabled = ? WHERE username = ?', [disabled ? 1 : 0, username])
        .changes === 1;
    const user = this.mirror.get(username);
    if (changed && user !== undefined) this.mirror.set(username, { ...user, disabled });
    return changed;
  }

  /** Replace a user's password hash; false when the user does not exist. */
  setPasswordHash(username: string, passwordHash: string): boolean {
    return (
      this.db.run('UPDATE users SET password_hash = ? WHERE username = ?', [passwordHash, username])
        .changes === 1
    );
  }

  /** Delete a user; false when the user does not exist. */
  delete(username: string): boolean {
    const deleted = this.db.run('DELETE FROM users WHERE username = ?', [username]).changes === 1;
    if (deleted) this.mirror.delete(username);
    return deleted;
  }

  /** Run `fn` atomically (checks and writes of one request); a rollback reloads the mirror. */
  transaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn);
    } catch (error) {
      this.reload();
      throw error;
    }
  }

  private reload(): void {
    const rows = this.db.all<UserRow>('SELECT username, uid, disabled FROM users');
    this.mirror = new Map(rows.map((row) => [row.username, toRecord(row)]));
  }
}
