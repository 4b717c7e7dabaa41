/**
 * JWT access and refresh tokens (docs/decisions.md §7): HS256 through jose, claims `sub` (username),
 * `exp`, `iat`, `jti`, `type` (`access` | `refresh`) and `uid`, the id of the user row the token
 * was issued to, so a user deleted and created again under the same name does not inherit the
 * old tokens. Only HS256 verifies; expiry has no leeway.
 *
 * Core asks about every request, and an HMAC check through jose costs tens to hundreds of
 * microseconds, so tokens that verified are remembered (bounded) and only their expiry is
 * checked again. The key is the whole token text: a hit is the very same signed bytes.
 */
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import type * as Jose from 'jose';

// jose is loaded on the first token operation: with authentication off (the default until a user
// is set up) a host never needs its ~8 MB.
let jose: Promise<typeof Jose> | undefined;
const loadJose = (): Promise<typeof Jose> => (jose ??= import('jose'));

/**
 * Which kind of token; a refresh token is never accepted where an access token is needed. A
 * device token only tells login that this client signed in as the user before.
 */
export type TokenType = 'access' | 'refresh' | 'device';

/** The claims this service signs and checks. */
export interface TokenClaims {
  readonly sub: string;
  readonly uid: string;
  readonly type: TokenType;
  readonly iat: number;
  readonly exp: number;
  readonly jti: string;
}

/** The user a token is issued to. */
export interface TokenSubject {
  readonly username: string;
  readonly uid: string;
}

/** A signed access + refresh pair. */
export interface TokenPair {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly token_type: 'bearer';
}

/** A pair with what the refresh-token store records about its refresh token. */
export interface IssuedPair {
  readonly pair: TokenPair;
  readonly refreshJti: string;
  readonly refreshExpiresAtMs: number;
}

/** Result of {@link TokenService.verify}. */
export type TokenCheck =
  | { readonly ok: true; readonly claims: TokenClaims }
  | { readonly ok: false; readonly reason: string };

/** Lifetimes and the clock (injectable for tests). */
export interface TokenServiceOptions {
  readonly accessTtlSec: number;
  readonly refreshTtlSec: number;
  /** Milliseconds since the epoch. */
  readonly now?: () => number;
}

const ALGORITHM = 'HS256';
/** Verified tokens remembered at most (oldest forgotten first). */
const VERIFIED_CACHE_SIZE = 1024;

/** Issues and verifies tokens with one secret key (imported once). */
export class TokenService {
  private readonly key: KeyObject;
  private readonly now: () => number;
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    secret: Uint8Array,
    private readonly options: TokenServiceOptions,
  ) {
    this.key = createSecretKey(secret);
    this.now = options.now ?? Date.now;
  }

  /** A fresh access + refresh pair for `subject`. */
  async issuePair(subject: TokenSubject): Promise<IssuedPair> {
    const refreshJti = randomUUID();
    const issuedAt = Math.floor(this.now() / 1000);
    const [access, refresh] = await Promise.all([
      this.sign(subject, 'access', issuedAt, this.options.accessTtlSec, randomUUID()),
      this.sign(subject, 'refresh', issuedAt, this.options.refreshTtlSec, refreshJti),
    ]);
    return {
      pair: { access_token: access, refresh_token: refresh, token_type: 'bearer' },
      refreshJti,
      refreshExpiresAtMs: (issuedAt + this.options.refreshTtlSec) * 1000,
    };
  }

  /**
   * A known-device token for `subject`: given back at login, it skips the username-wide
   * slowdown (never the per-address lockouts). It grants nothing else.
   */
  async issueDevice(subject: TokenSubject, ttlSec: number): Promise<string> {
    const issuedAt = Math.floor(this.now() / 1000);
    return this.sign(subject, 'device', issuedAt, ttlSec, randomUUID());
  }

  /** Check signature, expiry, the claim set and the expected type. Never throws. */
  async verify(token: string, expected: TokenType): Promise<TokenCheck> {
    const known = this.verified.get(token);
    if (known !== undefined) {
      if (known.exp * 1000 <= this.now()) {
        this.verified.delete(token);
        return { ok: false, reason: 'token expired' };
      }
      return known.type === expected
        ? { ok: true, claims: known }
        : { ok: false, reason: `not a ${expected} token` };
    }
    const check = await this.verifySignature(token, expected);
    if (check.ok) this.remember(token, check.claims);
    return check;
  }

  private remember(token: string, claims: TokenClaims): void {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) {
      const oldest = this.verified.keys().next();
      if (oldest.done !== true) this.verified.delete(oldest.value);
    }
    this.verified.set(token, claims);
  }

  private async verifySignature(token: string, expected: TokenType): Promise<TokenCheck> {
    try {
      const { jwtVerify } = await loadJose();
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        currentDate: new Date(this.now()),
        requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      });
      const { sub, uid, type, iat, exp, jti } = payload as Record<string, unknown>;
      if (type !== expected) return { ok: false, reason: `not a ${expected} token` };
      if (
        typeof sub !== 'string' ||
        typeof uid !== 'string' ||
        typeof iat !== 'number' ||
        typeof exp !== 'number' ||
        typeof jti !== 'string'
      ) {
        return { ok: false, reason: 'malformed claims' };
      }
      return { ok: true, claims: { sub, uid, type: expected, iat, exp, jti } };
    } catch (error) {
      return { ok: false, reason: error instanceof Error ? error.message : 'invalid token' };
    }
  }

  private async sign(
    subject: TokenSubject,
    type: TokenType,
    issuedAt: number,
    ttlSec: number,
    jti: string,
  ): Promise<string> {
    const { SignJWT } = await loadJose();
    return new SignJWT({ type, uid: subject.uid })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(subject.username)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ttlSec)
      .setJti(jti)
      .sign(this.key);
  }
}
