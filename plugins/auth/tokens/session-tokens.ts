/**
 * Token pairs with a server-side record of their refresh tokens: sign-in starts a family,
 * refresh rotates within it, logout revokes it (docs/decisions.md §28). Access tokens stay stateless
 * and short-lived.
 */
import { randomUUID } from 'node:crypto';
import type { RefreshStore } from './refresh-store.js';
import type { TokenPair, TokenService, TokenSubject } from './token-service.js';

/** Why a refresh token was refused. */
export type RefreshRefusal = 'invalid' | 'replayed' | 'revoked';

/** Result of {@link SessionTokens.rotate}. */
export type RotateResult =
  | { readonly ok: true; readonly subject: TokenSubject; readonly family: string }
  | { readonly ok: false; readonly reason: RefreshRefusal };

/** Issues, rotates and revokes token pairs. */
export class SessionTokens {
  constructor(
    private readonly tokens: TokenService,
    private readonly store: RefreshStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** A pair for a new sign-in (a new family), or the next pair of `family`. */
  async issue(subject: TokenSubject, family: string = randomUUID()): Promise<TokenPair> {
    const issued = await this.tokens.issuePair(subject);
    this.store.issued(issued.refreshJti, family, subject.username, issued.refreshExpiresAtMs);
    return issued.pair;
  }

  /** Check a refresh token and mark it used; the caller issues the next pair of its family. */
  async rotate(refreshToken: string): Promise<RotateResult> {
    const check = await this.tokens.verify(refreshToken, 'refresh');
    if (!check.ok) return { ok: false, reason: 'invalid' };
    const use = this.store.use(check.claims.jti, this.now());
    switch (use.kind) {
      case 'fresh':
      case 'grace':
        return {
          ok: true,
          subject: { username: check.claims.sub, uid: check.claims.uid },
          family: use.family,
        };
      case 'replayed':
        return { ok: false, reason: 'replayed' };
      default:
        // Unknown rows are tokens from before rotation existed, or pruned: refused like revoked.
        return { ok: false, reason: 'revoked' };
    }
  }

  /** Revoke the sign-in a refresh token belongs to; false when the token is not valid. */
  async revoke(refreshToken: string): Promise<boolean> {
    const check = await this.tokens.verify(refreshToken, 'refresh');
    if (!check.ok) return false;
    return this.store.revokeFamilyOf(check.claims.jti);
  }

  /** End every sign-in of a user: none of their refresh tokens works any more. */
  revokeUser(username: string): number {
    return this.store.revokeUser(username);
  }

  /** Drop expired records (at start; they are refused by expiry anyway). */
  prune(): number {
    return this.store.prune(this.now());
  }
}
