/**
 * Refresh tokens in use (docs/decisions.md §28). Every refresh token issued is a row; a refresh marks its
 * row used and issues the next token of the same family (one sign-in = one family). A token used
 * again within the grace period (tabs refreshing at once) gets another pair; used again later, it
 * is a replay: the whole family is revoked, so a stolen token dies with the session it came from.
 * Logout revokes the family. Rows expire with their token and are pruned.
 */
import type { Database } from '../../../sdk/index.js';

/** What using a refresh token found. */
export type RefreshUse =
  | { readonly kind: 'fresh' | 'grace'; readonly family: string }
  | { readonly kind: 'replayed' | 'revoked' | 'unknown' };

interface RefreshRow {
  [column: string]: string | number | null;
  family: string;
  used_at: number | null;
  revoked: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS refresh_tokens (
  jti        TEXT PRIMARY KEY NOT NULL,
  family     TEXT NOT NULL,
  username   TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER,
  revoked    INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1))
);
CREATE INDEX IF NOT EXISTS refresh_tokens_family ON refresh_tokens (family);`;

/** The table of refresh tokens and their families. */
export class RefreshStore {
  constructor(
    private readonly db: Database,
    private readonly graceMs: number,
  ) {
    db.exec(SCHEMA);
  }

  /** Record a newly issued refresh token. */
  issued(jti: string, family: string, username: string, expiresAtMs: number): void {
    this.db.run(
      'INSERT INTO refresh_tokens (jti, family, username, expires_at) VALUES (?, ?, ?, ?)',
      [jti, family, username, expiresAtMs],
    );
  }

  /** Use a token whose signature and expiry already verified. */
  use(jti: string, now: number): RefreshUse {
    return this.db.transaction((): RefreshUse => {
      const row = this.db.get<RefreshRow>(
        'SELECT family, used_at, revoked FROM refresh_tokens WHERE jti = ?',
        [jti],
      );
      if (row === undefined) return { kind: 'unknown' };
      if (row.revoked === 1) return { kind: 'revoked' };
      if (row.used_at === null) {
        this.db.run('UPDATE refresh_tokens SET used_at = ? WHERE jti = ?', [now, jti]);
        return { kind: 'fresh', family: row.family };
      }
      if (now - row.used_at <= this.graceMs) return { kind: 'grace', family: row.family };
      this.revokeFamily(row.family);
      return { kind: 'replayed' };
    });
  }

  /** Revoke the family of a token (logout); false when the token is unknown. */
  revokeFamilyOf(jti: string): boolean {
    const row = this.db.get<RefreshRow>('SELECT family FROM refresh_tokens WHERE jti = ?', [jti]);
    if (row === undefined) return false;
    this.revokeFamily(row.family);
    return true;
  }

  /** Revoke every sign-in of a user (a password change ends them all). */
  revokeUser(username: string): number {
    return this.db.run('UPDATE refresh_tokens SET revoked = 1 WHERE username = ? AND revoked = 0', [
      username,
    ]).changes;
  }

  /** Forget rows whose token expired. */
  prune(now: number): number {
    return this.db.run('DELETE FROM refresh_tokens WHERE expires_at <= ?', [now]).changes;
  }

  private revokeFamily(family: string): void {
    this.db.run('UPDATE refresh_tokens SET revoked = 1 WHERE family = ?', [family]);
  }
}
