/**
 * Scrape tokens: long-lived, read-only credentials for a Prometheus server (`bearer_token_file`).
 * A token is `stackd_scrape_<id>_<secret>`; only the SHA-256 of the secret is stored (the secret
 * is 256 random bits, so a slow hash adds nothing). Listable by id and name, revocable by id.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { SCRAPE_TOKEN_PREFIX, isoSeconds, type Database } from '../../../sdk/index.js';

/** What listing shows of a token (never the token itself). */
export interface ScrapeTokenInfo {
  readonly id: string;
  readonly name: string;
  readonly created_at: string;
  readonly last_used_at: string | null;
}

interface TokenRow {
  [column: string]: string | number | null;
  id: string;
  name: string;
  secret_sha256: string;
  created_at: number;
  last_used_at: number | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS scrape_tokens (
  id            TEXT PRIMARY KEY NOT NULL,
  name          TEXT NOT NULL,
  secret_sha256 TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  last_used_at  INTEGER
);`;

const TOKEN = new RegExp(`^${SCRAPE_TOKEN_PREFIX}([0-9a-f]{32})_([A-Za-z0-9_-]{43})$`);
/** `last_used_at` is written at most this often per token: a 1 s scrape must not write each time. */
const TOUCH_EVERY_MS = 60_000;

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/** The table of scrape tokens. */
export class ScrapeTokenStore {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    db.exec(SCHEMA);
  }

  /** A new token; its text is shown once, here. */
  create(name: string): ScrapeTokenInfo & { readonly token: string } {
    const id = randomUUID().replaceAll('-', '');
    const secret = randomBytes(32).toString('base64url');
    const createdAt = this.now();
    this.db.run(
      'INSERT INTO scrape_tokens (id, name, secret_sha256, created_at) VALUES (?, ?, ?, ?)',
      [id, name, sha256(secret).toString('hex'), createdAt],
    );
    return {
      id,
      name,
      created_at: isoSeconds(createdAt),
      last_used_at: null,
      token: `${SCRAPE_TOKEN_PREFIX}${id}_${secret}`,
    };
  }

  list(): ScrapeTokenInfo[] {
    return this.db
      .all<TokenRow>('SELECT * FROM scrape_tokens ORDER BY created_at, id')
      .map((row) => ({
        id: row.id,
        name: row.name,
        created_at: isoSeconds(row.created_at),
        last_used_at: row.last_used_at === null ? null : isoSeconds(row.last_used_at),
      }));
  }

  /** False when no token has that id. */
  revoke(id: string): boolean {
    return this.db.run('DELETE FROM scrape_tokens WHERE id = ?', [id]).changes > 0;
  }

  /** The token's id when the text is a valid, unrevoked scrape token, else null. */
  verify(token: string): string | null {
    const match = TOKEN.exec(token);
    if (match === null) return null;
    const [, id = '', secret = ''] = match;
    const row = this.db.get<TokenRow>('SELECT * FROM scrape_tokens WHERE id = ?', [id]);
    if (row === undefined) return null;
    if (!timingSafeEqual(sha256(secret), Buffer.from(row.secret_sha256, 'hex'))) return null;
    const now = this.now();
    if (row.last_used_at === null || now - row.last_used_at >= TOUCH_EVERY_MS)
      this.db.run('UPDATE scrape_tokens SET last_used_at = ? WHERE id = ?', [now, id]);
    return id;
  }
}
