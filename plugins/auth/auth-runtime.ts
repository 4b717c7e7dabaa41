/**
 * Builds the plugin's parts once storage may be touched (onStart): the database, the secret, the
 * stores and the services. Routes and the authenticator reach the parts through this holder; core
 * binds routes only after every plugin started, so they never see it empty.
 */
import {
  UnavailableError,
  type AuthenticationRequest,
  type AuthenticationResult,
  type Authenticator,
  type Logger,
  type PluginStorage,
} from '../../sdk/index.js';
import { AccountService, type AccountServiceDeps } from './accounts/account-service.js';
import { AuthStateStore } from './accounts/auth-state.js';
import type { AuthConfig } from './config.js';
import { PasswordHasher } from './accounts/password-hasher.js';
import { RateLimiter } from './login-throttle/rate-limiter.js';
import { RefreshStore } from './tokens/refresh-store.js';
import { loadOrCreateSecret } from './tokens/secret-store.js';
import { SessionTokens } from './tokens/session-tokens.js';
import { LoginSlowdown } from './login-throttle/login-slowdown.js';
import { SessionService, type SessionServiceDeps } from './sessions/session-service.js';
import { TokenAuthenticator } from './sessions/token-authenticator.js';
import { TokenService } from './tokens/token-service.js';
import { UserStore } from './accounts/user-store.js';
import { ScrapeTokenStore } from './tokens/scrape-token-store.js';
import { AUTH_NOT_READY } from './errors.js';

/** File name of the plugin's database inside its storage folder. */
export const DATABASE_FILE = 'auth.sqlite';

interface Parts {
  readonly accounts: AccountService;
  readonly sessions: SessionService;
  readonly authenticator: TokenAuthenticator;
  readonly scrapeTokens: ScrapeTokenStore;
}

/** What the runtime needs from the plugin context. */
export interface AuthRuntimeContext {
  readonly storage: PluginStorage;
  readonly logger: Logger;
  readonly config: AuthConfig;
  readonly onLockout?: SessionServiceDeps['onLockout'];
  readonly onLogin?: SessionServiceDeps['onLogin'];
  readonly onAccountEvent?: AccountServiceDeps['onAccountEvent'];
}

/** The started plugin, or nothing yet. */
export class AuthRuntime implements Authenticator {
  private parts: Parts | undefined;

  constructor(private readonly ctx: AuthRuntimeContext) {}

  async start(): Promise<void> {
    const { storage, logger, config } = this.ctx;
    const secret = await loadOrCreateSecret(storage, logger);
    const db = storage.openDatabase(DATABASE_FILE);
    const users = new UserStore(db);
    const state = new AuthStateStore(db);
    const hasher = new PasswordHasher(config.scrypt_cost_log2);
    const tokens = new TokenService(secret, {
      accessTtlSec: config.access_token_ttl_sec,
      refreshTtlSec: config.refresh_token_ttl_sec,
    });
    const sessionTokens = new SessionTokens(
      tokens,
      new RefreshStore(db, config.refresh_reuse_grace_sec * 1000),
    );
    sessionTokens.prune();
    const limits = config.login_rate_limit;
    const limiter = new RateLimiter({
      windowMs: limits.window_sec * 1000,
      lockoutBaseMs: limits.lockout_base_sec * 1000,
      lockoutMaxMs: limits.lockout_max_sec * 1000,
    });
    const scrapeTokens = new ScrapeTokenStore(db);
    this.parts = {
      scrapeTokens,
      accounts: new AccountService({
        users,
        state,
        hasher,
        sessionTokens,
        logger,
        onAccountEvent: this.ctx.onAccountEvent,
      }),
      sessions: new SessionService({
        users,
        state,
        hasher,
        tokens,
        sessionTokens,
        limiter,
        perUser: { maxFailures: limits.max_failures_per_user },
        perAddress: { maxFailures: limits.max_failures_per_address },
        slowdown: new LoginSlowdown({
          afterFailures: limits.slowdown_after_failures,
          intervalMs: limits.slowdown_interval_ms,
          windowMs: limits.window_sec * 1000,
          maxWaitMs: 30_000,
        }),
        deviceTtlSec: config.refresh_token_ttl_sec,
        logger,
        ...(this.ctx.onLockout === undefined ? {} : { onLockout: this.ctx.onLockout }),
        ...(this.ctx.onLogin === undefined ? {} : { onLogin: this.ctx.onLogin }),
      }),
      authenticator: new TokenAuthenticator(state, users, tokens, logger, scrapeTokens),
    };
    const status = this.parts.accounts.status();
    logger.info(
      `authentication ${status.enabled ? 'enabled' : 'disabled'}` +
        (status.has_users ? '' : ' (no users yet)'),
    );
  }

  get accounts(): AccountService {
    return this.started().accounts;
  }

  get scrapeTokens(): ScrapeTokenStore {
    return this.started().scrapeTokens;
  }

  get sessions(): SessionService {
    return this.started().sessions;
  }

  /** The `core.authenticator` entry point; refuses (never opens) before start. */
  authenticate(
    request: AuthenticationRequest,
  ): AuthenticationResult | Promise<AuthenticationResult> {
    if (this.parts === undefined)
      return {
        ok: false,
        status: 401,
        code: AUTH_NOT_READY,
        detail: 'Authentication is starting',
      };
    return this.parts.authenticator.authenticate(request);
  }

  private started(): Parts {
    if (this.parts === undefined)
      throw new UnavailableError(AUTH_NOT_READY, 'Authentication is starting');
    return this.parts;
  }
}
