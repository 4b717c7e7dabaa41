/**
 * Real parts of the auth plugin over a real SQLite file in a temp folder, with a controllable
 * clock and a logger that keeps every line (to prove nothing secret is logged).
 */
import { ScrapeTokenStore } from '../../../plugins/auth/tokens/scrape-token-store.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogSink, ScopedLogger } from '../../../core/logging/logger.js';
import { FolderStorage } from '../../../core/storage/plugin-storage.js';
import { AccountService } from '../../../plugins/auth/accounts/account-service.js';
import { AuthStateStore } from '../../../plugins/auth/accounts/auth-state.js';
import { PasswordHasher } from '../../../plugins/auth/accounts/password-hasher.js';
import { LoginSlowdown } from '../../../plugins/auth/login-throttle/login-slowdown.js';
import { RateLimiter } from '../../../plugins/auth/login-throttle/rate-limiter.js';
import { RefreshStore } from '../../../plugins/auth/tokens/refresh-store.js';
import { SessionTokens } from '../../../plugins/auth/tokens/session-tokens.js';
import { SessionService } from '../../../plugins/auth/sessions/session-service.js';
import { TokenAuthenticator } from '../../../plugins/auth/sessions/token-authenticator.js';
import { TokenService } from '../../../plugins/auth/tokens/token-service.js';
import { UserStore } from '../../../plugins/auth/accounts/user-store.js';
import type { Logger } from '../../../sdk/index.js';

/** A clock tests move by hand. */
export class ManualClock {
  constructor(public ms = Date.UTC(2030, 0, 1)) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** A logger whose formatted lines are kept in `lines`. */
export function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new LogSink('debug', (line) => lines.push(line));
  return { logger: new ScopedLogger(sink, 'auth'), lines };
}

/** A fresh plugin storage folder under the OS temp dir. */
export function tempStorage(): FolderStorage {
  return new FolderStorage(mkdtempSync(join(tmpdir(), 'stackd-auth-unit-')), 'auth');
}

/** Cheapest accepted scrypt cost: the tests check behaviour, not strength. */
export const TEST_COST_LOG2 = 14;
export const SECRET = new Uint8Array(32).fill(7);

/** Every service of the plugin wired as the runtime wires them. */
export function authParts(
  options: {
    accessTtlSec?: number;
    refreshTtlSec?: number;
    perUser?: number;
    perAddress?: number;
    slowdownAfter?: number;
    slowdownIntervalMs?: number;
    graceMs?: number;
  } = {},
) {
  const storage = tempStorage();
  const db = storage.openDatabase('auth.sqlite');
  const clock = new ManualClock();
  const { logger, lines } = recordingLogger();
  const users = new UserStore(db);
  const state = new AuthStateStore(db);
  const hasher = new PasswordHasher(TEST_COST_LOG2);
  const tokens = new TokenService(SECRET, {
    accessTtlSec: options.accessTtlSec ?? 3600,
    refreshTtlSec: options.refreshTtlSec ?? 30 * 86_400,
    now: clock.now,
  });
  const limiter = new RateLimiter({
    windowMs: 900_000,
    lockoutBaseMs: 30_000,
    lockoutMaxMs: 900_000,
    now: clock.now,
  });
  const sessionTokens = new SessionTokens(
    tokens,
    new RefreshStore(db, options.graceMs ?? 10_000),
    clock.now,
  );
  const slowdown = new LoginSlowdown({
    afterFailures: options.slowdownAfter ?? 10,
    intervalMs: options.slowdownIntervalMs ?? 0,
    windowMs: 900_000,
    maxWaitMs: 30_000,
    now: clock.now,
  });
  const accounts = new AccountService({ users, state, hasher, sessionTokens, logger });
  const sessions = new SessionService({
    users,
    state,
    hasher,
    tokens,
    sessionTokens,
    limiter,
    slowdown,
    deviceTtlSec: 3600,
    perUser: { maxFailures: options.perUser ?? 5 },
    perAddress: { maxFailures: options.perAddress ?? 20 },
    logger,
  });
  const scrapeTokens = new ScrapeTokenStore(db);
  const authenticator = new TokenAuthenticator(state, users, tokens, logger, scrapeTokens);
  return {
    storage,
    scrapeTokens,
    db,
    clock,
    lines,
    users,
    state,
    tokens,
    sessionTokens,
    slowdown,
    accounts,
    sessions,
    authenticator,
  };
}
