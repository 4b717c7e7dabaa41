/**
 * The `core.authenticator` service: core asks it about every request to a route or stream whose
 * auth is `required`. Auth off → open. Otherwise a valid access token of an existing, active
 * user; a disabled user's token gets 403 at once, a deleted user's 401. Never throws.
 */
import type {
  AuthenticationRequest,
  AuthenticationResult,
  Authenticator,
  Logger,
} from '../../../sdk/index.js';
import { EXPOSITION_PATH, EXPOSITION_SCOPE, SCRAPE_TOKEN_PREFIX } from '../../../sdk/index.js';
import type { AuthStateStore } from '../accounts/auth-state.js';
import type { ScrapeTokenStore } from '../tokens/scrape-token-store.js';
import { principalState } from './session-service.js';
import type { TokenService } from '../tokens/token-service.js';
import type { UserStore } from '../accounts/user-store.js';
import {
  AUTH_CHECK_FAILED,
  AUTH_INVALID_TOKEN,
  AUTH_REQUIRED,
  AUTH_TOKEN_SCOPE,
  AUTH_USER_DISABLED,
  AUTH_USER_REVOKED,
} from '../errors.js';

const OPEN: AuthenticationResult = { ok: true, principal: null };

/** The only routes a scrape token reaches: the exposition and the negotiating `/metrics`. */
const EXPOSITION_PATHS = new Set(
  ['/metrics', EXPOSITION_PATH].flatMap((path) => [path, `/api${path}`]),
);

function refuse(status: 401 | 403, code: string, detail: string): AuthenticationResult {
  return { ok: false, status, code, detail };
}

/** Bearer access tokens checked against the user table on every call. */
export class TokenAuthenticator implements Authenticator {
  constructor(
    private readonly state: AuthStateStore,
    private readonly users: UserStore,
    private readonly tokens: TokenService,
    private readonly logger: Logger,
    private readonly scrapeTokens: ScrapeTokenStore,
  ) {}

  authenticate(
    request: AuthenticationRequest,
  ): AuthenticationResult | Promise<AuthenticationResult> {
    // Checked before the mode: a scrape token stays read-only even while authentication is off.
    if (request.token?.startsWith(SCRAPE_TOKEN_PREFIX) === true)
      return this.scrape(request, request.token);
    // Answered at once when no token needs verifying: core refuses before reading the body.
    if (!this.state.mode.enabled) return OPEN;
    if (request.token === null) return refuse(401, AUTH_REQUIRED, 'Authentication required');
    return this.verify(request.token, request.path);
  }

  /** A scrape token: GET of the exposition only, whatever else it is presented to. */
  private scrape(request: AuthenticationRequest, token: string): AuthenticationResult {
    const inScope =
      request.transport === 'http' &&
      request.method === 'GET' &&
      EXPOSITION_PATHS.has(request.path);
    if (!inScope)
      return refuse(403, AUTH_TOKEN_SCOPE, 'A scrape token may only read the metrics exposition');
    try {
      const id = this.scrapeTokens.verify(token);
      if (id === null) return refuse(401, AUTH_INVALID_TOKEN, 'Invalid or revoked scrape token');
      return { ok: true, principal: { username: `scrape-token:${id}`, scope: EXPOSITION_SCOPE } };
    } catch (error) {
      this.logger.error('scrape token check failed', {
        error: error instanceof Error ? error.message : String(error),
      });
      return refuse(401, AUTH_CHECK_FAILED, 'Authentication could not be checked');
    }
  }

  private async verify(token: string, path: string): Promise<AuthenticationResult> {
    try {
      const check = await this.tokens.verify(token, 'access');
      if (!check.ok) return refuse(401, AUTH_INVALID_TOKEN, 'Invalid or expired token');
      const { sub, uid } = check.claims;
      const principal = principalState(this.users, sub, uid);
      if (principal === 'revoked')
        return refuse(401, AUTH_USER_REVOKED, 'User account no longer exists');
      if (principal === 'disabled')
        return refuse(403, AUTH_USER_DISABLED, 'User account is disabled');
      return { ok: true, principal: { username: sub } };
    } catch (error) {
      // A storage failure must not open the door or crash the request: refuse and log.
      this.logger.error('authentication check failed', {
        path,
        error: error instanceof Error ? error.message : String(error),
      });
      return refuse(401, AUTH_CHECK_FAILED, 'Authentication could not be checked');
    }
  }
}
