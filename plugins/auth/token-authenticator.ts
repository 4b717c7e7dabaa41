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
} from '../../sdk/index.js';
import type { AuthStateStore } from './auth-state.js';
import { principalState } from './session-service.js';
import type { TokenService } from './token-service.js';
import type { UserStore } from './user-store.js';

const OPEN: AuthenticationResult = { ok: true, principal: null };

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
  ) {}

  authenticate(
    request: AuthenticationRequest,
  ): AuthenticationResult | Promise<AuthenticationResult> {
    // Answered at once when no token needs verifying: core refuses before reading the body.
    if (!this.state.mode.enabled) return OPEN;
    if (request.token === null) return refuse(401, 'AUTH_REQUIRED', 'Authentication required');
    return this.verify(request.token, request.path);
  }

  private async verify(token: string, path: string): Promise<AuthenticationResult> {
    try {
      const check = await this.tokens.verify(token, 'access');
      if (!check.ok) return refuse(401, 'AUTH_INVALID_TOKEN', 'Invalid or expired token');
      const { sub, uid } = check.claims;
      const principal = principalState(this.users, sub, uid);
      if (principal === 'revoked')
        return refuse(401, 'AUTH_USER_REVOKED', 'User account no longer exists');
      if (principal === 'disabled')
        return refuse(403, 'AUTH_USER_DISABLED', 'User account is disabled');
      return { ok: true, principal: { username: sub } };
    } catch (error) {
      // A storage failure must not open the door or crash the request: refuse and log.
      this.logger.error('authentication check failed', {
        path,
        error: error instanceof Error ? error.message : String(error),
      });
      return refuse(401, 'AUTH_CHECK_FAILED', 'Authentication could not be checked');
    }
  }
}
