/**
 * Signing in: login (rate limited per username and per client address), refresh and verify.
 * Tokens only mean something while authentication is enabled, as in the reference: login and
 * refresh answer 401 while it is off, and verify says `valid: false`.
 */
import {
  ForbiddenError,
  TooManyRequestsError,
  UnauthorizedError,
  type Logger,
} from '../../sdk/index.js';
import type { AuthStateStore } from './auth-state.js';
import type { PasswordHasher } from './password-hasher.js';
import type { KeyPolicy, LimitedKey, RateLimiter } from './rate-limiter.js';
import type { TokenPair, TokenService } from './token-service.js';
import type { UserRecord, UserStore } from './user-store.js';

/** What signing in needs. */
export interface SessionServiceDeps {
  readonly users: UserStore;
  readonly state: AuthStateStore;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly limiter: RateLimiter;
  readonly perUser: KeyPolicy;
  readonly perAddress: KeyPolicy;
  readonly logger: Logger;
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

/** Login, refresh and verify. */
export class SessionService {
  constructor(private readonly deps: SessionServiceDeps) {}

  async login(username: string, password: string, ip: string): Promise<TokenPair> {
    const { users, state, hasher, tokens, limiter, logger } = this.deps;
    if (!state.mode.enabled) throw new UnauthorizedError('AUTH_NOT_ENABLED', NOT_ENABLED);
    const keys = this.limitedKeys(username, ip);
    const decision = limiter.check(keys);
    if (!decision.allowed) {
      logger.debug('login refused: locked after failed attempts', { username, ip });
      throw new TooManyRequestsError(
        'AUTH_RATE_LIMITED',
        'Too many failed login attempts; try again later',
        decision.retryAfterMs / 1000,
      );
    }
    const user = users.findCredentials(username);
    const matches =
      user === undefined
        ? await hasher.verifyAgainstNothing(password)
        : await hasher.verify(password, user.passwordHash);
    if (user === undefined || !matches) {
      const lockouts = limiter.recordFailure(keys);
      logger.info('login failed: invalid credentials', { username, ip });
      for (const lockout of lockouts)
        logger.warn('login locked after repeated failures', {
          key: lockout.key,
          seconds: Math.ceil(lockout.lockoutMs / 1000),
        });
      throw new UnauthorizedError('AUTH_INVALID_CREDENTIALS', 'Incorrect username or password');
    }
    limiter.reset(this.userKey(username));
    if (user.disabled) {
      logger.info('login refused: account disabled', { username, ip });
      throw new ForbiddenError('AUTH_USER_DISABLED', 'User account is disabled');
    }
    logger.info('login succeeded', { username, ip });
    return tokens.issuePair(user);
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    const { users, state, tokens } = this.deps;
    if (!state.mode.enabled) throw new UnauthorizedError('AUTH_NOT_ENABLED', NOT_ENABLED);
    const check = await tokens.verify(refreshToken, 'refresh');
    if (!check.ok)
      throw new UnauthorizedError('AUTH_INVALID_REFRESH_TOKEN', 'Invalid or expired refresh token');
    const { sub, uid } = check.claims;
    const principal = principalState(users, sub, uid);
    if (principal === 'revoked')
      throw new UnauthorizedError('AUTH_USER_REVOKED', 'User account no longer exists');
    if (principal === 'disabled')
      throw new ForbiddenError('AUTH_USER_DISABLED', 'User account is disabled');
    return tokens.issuePair({ username: sub, uid });
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

  private userKey(username: string): string {
    // Lower-cased so case variants of one name share a budget.
    return `user:${username.toLowerCase()}`;
  }

  private limitedKeys(username: string, ip: string): LimitedKey[] {
    return [
      { key: this.userKey(username), policy: this.deps.perUser },
      { key: `address:${ip}`, policy: this.deps.perAddress },
    ];
  }
}
