/**
 * Signing in: login (rate limited per username and per client address), refresh and verify.
 * Tokens only mean something while authentication is enabled, as in the reference: login and
 * refresh answer 401 while it is off, and verify says `valid: false`.
 */
import { setTimeout as delay } from 'node:timers/promises';
import {
  ForbiddenError,
  TooManyRequestsError,
  UnauthorizedError,
  type Logger,
} from '../../../sdk/index.js';
import type { AuthStateStore } from '../accounts/auth-state.js';
import type { PasswordHasher } from '../accounts/password-hasher.js';
import type { LoginSlowdown } from '../login-throttle/login-slowdown.js';
import type { KeyPolicy, LimitedKey, RateLimiter } from '../login-throttle/rate-limiter.js';
import type { SessionTokens } from '../tokens/session-tokens.js';
import type { TokenPair, TokenService, TokenSubject } from '../tokens/token-service.js';
import type { UserRecord, UserStore } from '../accounts/user-store.js';
import {
  AUTH_INVALID_CREDENTIALS,
  AUTH_INVALID_REFRESH_TOKEN,
  AUTH_NOT_ENABLED,
  AUTH_RATE_LIMITED,
  AUTH_REFRESH_TOKEN_REVOKED,
  AUTH_USER_DISABLED,
  AUTH_USER_REVOKED,
} from '../errors.js';

/** What signing in needs. */
export interface SessionServiceDeps {
  readonly users: UserStore;
  readonly state: AuthStateStore;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly sessionTokens: SessionTokens;
  readonly limiter: RateLimiter;
  readonly perUser: KeyPolicy;
  readonly perAddress: KeyPolicy;
  readonly slowdown: LoginSlowdown;
  /** Lifetime of known-device tokens (the refresh token lifetime). */
  readonly deviceTtlSec: number;
  readonly logger: Logger;
  /** Told once per lockout (the plugin turns it into a notable event). */
  readonly onLockout?: (lockout: { username: string; ip: string; seconds: number }) => void;
  /** Told of every sign-in attempt that reached the password check (the event journal). */
  readonly onLogin?: (attempt: LoginAttempt) => void;
}

/** A sign-in's answer: the token pair and the known-device token for the next login. */
export interface SignIn extends TokenPair {
  readonly device_token: string;
}

/** Answer of verify. */
export interface VerifyResult {
  readonly valid: boolean;
  readonly username: string | null;
}

/** The current state of the user a token names: usable, gone, or disabled. */
export type PrincipalState = 'active' | 'revoked' | 'disabled';

/** Whether the user a token was issued to still exists (same row) and is active. */
export function principalState(users: UserStore, sub: string, uid: string): PrincipalState {
  const user: UserRecord | undefined = users.find(sub);
  if (user === undefined || user.uid !== uid) return 'revoked';
  return user.disabled ? 'disabled' : 'active';
}

const NOT_ENABLED = 'Authentication is not enabled';

function rateLimited(retryAfterMs: number): TooManyRequestsError {
  return new TooManyRequestsError(
    AUTH_RATE_LIMITED,
    'Too many failed login attempts; try again later',
    retryAfterMs / 1000,
  );
}

/** A sign-in attempt, without the password. */
export interface LoginAttempt {
  readonly username: string;
  readonly ip: string;
  readonly outcome: 'ok' | 'failed' | 'disabled';
}

/** Login, refresh and verify. */
export class SessionService {
  constructor(private readonly deps: SessionServiceDeps) {}

  async login(
    username: string,
    password: string,
    ip: string,
    deviceToken?: string,
  ): Promise<SignIn> {
    const { users, state, hasher, limiter, slowdown, logger } = this.deps;
    if (!state.mode.enabled) throw new UnauthorizedError(AUTH_NOT_ENABLED, NOT_ENABLED);
    const name = username.toLowerCase();
    const keys = this.limitedKeys(name, ip);
    const decision = limiter.check(keys);
    if (!decision.allowed) {
      logger.debug('login refused: locked after failed attempts', { username, ip });
      throw rateLimited(decision.retryAfterMs);
    }
    const knownDevice = await this.isKnownDevice(deviceToken, name);
    const turn = knownDevice ? ({ kind: 'now' } as const) : slowdown.turn(name, ip);
    if (turn.kind === 'refuse') throw rateLimited(turn.retryAfterMs);
    if (turn.kind === 'wait') await delay(turn.ms);
    const user = users.findCredentials(username);
    const matches =
      user === undefined
        ? await hasher.verifyAgainstNothing(password)
        : await hasher.verify(password, user.passwordHash);
    if (user === undefined || !matches) {
      const lockouts = limiter.recordFailure(keys);
      slowdown.failed(name);
      logger.info('login failed: invalid credentials', { username, ip });
      this.deps.onLogin?.({ username, ip, outcome: 'failed' });
      for (const lockout of lockouts) {
        const seconds = Math.ceil(lockout.lockoutMs / 1000);
        logger.warn('login locked after repeated failures', { username, ip, seconds });
        this.deps.onLockout?.({ username, ip, seconds });
      }
      throw new UnauthorizedError(AUTH_INVALID_CREDENTIALS, 'Incorrect username or password');
    }
    limiter.reset(keys[0]?.key ?? '');
    slowdown.succeeded(name, ip);
    if (user.disabled) {
      logger.info('login refused: account disabled', { username, ip });
      this.deps.onLogin?.({ username, ip, outcome: 'disabled' });
      throw new ForbiddenError(AUTH_USER_DISABLED, 'User account is disabled');
    }
    logger.info('login succeeded', { username, ip, known_device: knownDevice });
    this.deps.onLogin?.({ username, ip, outcome: 'ok' });
    return this.signIn(user);
  }

  /** A new sign-in's tokens and a fresh known-device token. */
  private async signIn(user: TokenSubject): Promise<SignIn> {
    const pair = await this.deps.sessionTokens.issue(user);
    return { ...pair, device_token: await this.knownDevice(user.username) };
  }

  /**
   * After setup: its address counts as signed in, so the owner who set stackd up is never queued
   * behind a guesser from there; answers the known-device token for the next login.
   */
  async setUp(username: string, ip: string): Promise<string> {
    this.deps.slowdown.succeeded(username.toLowerCase(), ip);
    return this.knownDevice(username);
  }

  private async knownDevice(username: string): Promise<string> {
    const user = this.deps.users.find(username);
    if (user === undefined)
      throw new UnauthorizedError(AUTH_USER_REVOKED, 'User account no longer exists');
    return this.deps.tokens.issueDevice(user, this.deps.deviceTtlSec);
  }

  /** Whether `token` is a device token that signed in as `name` (case-insensitive) before. */
  private async isKnownDevice(token: string | undefined, name: string): Promise<boolean> {
    if (token === undefined) return false;
    const check = await this.deps.tokens.verify(token, 'device');
    if (!check.ok || check.claims.sub.toLowerCase() !== name) return false;
    return principalState(this.deps.users, check.claims.sub, check.claims.uid) !== 'revoked';
  }

  /** Rotate: the next pair of the token's sign-in; the old token stops working after a grace. */
  async refresh(refreshToken: string, ip: string): Promise<TokenPair> {
    const { users, state, sessionTokens, logger } = this.deps;
    if (!state.mode.enabled) throw new UnauthorizedError(AUTH_NOT_ENABLED, NOT_ENABLED);
    const rotation = await sessionTokens.rotate(refreshToken);
    if (!rotation.ok) {
      if (rotation.reason === 'replayed')
        logger.warn('a used refresh token was presented again; its sign-in is revoked', { ip });
      throw new UnauthorizedError(
        rotation.reason === 'invalid' ? AUTH_INVALID_REFRESH_TOKEN : AUTH_REFRESH_TOKEN_REVOKED,
        rotation.reason === 'invalid'
          ? 'Invalid or expired refresh token'
          : 'This refresh token was already used or revoked; sign in again',
      );
    }
    const { username, uid } = rotation.subject;
    const principal = principalState(users, username, uid);
    if (principal === 'revoked')
      throw new UnauthorizedError(AUTH_USER_REVOKED, 'User account no longer exists');
    if (principal === 'disabled')
      throw new ForbiddenError(AUTH_USER_DISABLED, 'User account is disabled');
    return sessionTokens.issue(rotation.subject, rotation.family);
  }

  /** Logout: the sign-in of this refresh token ends (every token of its family). */
  async logout(refreshToken: string, ip: string): Promise<void> {
    const revoked = await this.deps.sessionTokens.revoke(refreshToken);
    if (!revoked)
      throw new UnauthorizedError(AUTH_INVALID_REFRESH_TOKEN, 'Invalid or expired refresh token');
    this.deps.logger.info('signed out', { ip });
  }

  /** Always answers: `{valid: false, username: null}` for anything but a usable access token. */
  async verify(token: string): Promise<VerifyResult> {
    const { users, state, tokens } = this.deps;
    const invalid = { valid: false, username: null };
    if (!state.mode.enabled) return invalid;
    const check = await tokens.verify(token, 'access');
    if (!check.ok) return invalid;
    if (principalState(users, check.claims.sub, check.claims.uid) !== 'active') return invalid;
    return { valid: true, username: check.claims.sub };
  }

  /**
   * Lockouts key on the address: a username from one address, and one address overall. So
   * failures from one address never lock a correct login from another (docs/decisions.md §25); the
   * username-wide answer is the slowdown. Names are lower-cased: case variants share a budget.
   */
  private limitedKeys(name: string, ip: string): LimitedKey[] {
    return [
      { key: `user:${name}\u0000${ip}`, policy: this.deps.perUser },
      { key: `address:${ip}`, policy: this.deps.perAddress },
    ];
  }
}
