/** Signing in: login, refresh and verify are open (docs/decisions.md §9); logout needs a token. */
import { InputError, MessageBody, defineRoute } from '../../../sdk/index.js';
import {
  Errors,
  LoginRequest,
  SignInBody,
  RefreshRequest,
  TokenPairBody,
  VerifyQuery,
  VerifyRequest,
  VerifyResponse,
} from '../schemas.js';
import type { AuthRuntime } from '../auth-runtime.js';
import { AUTH_TAGS } from './route-context.js';
import { AUTH_TOKEN_MISSING } from '../errors.js';

export function loginRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'POST',
    path: '/api/auth/login',
    auth: 'open',
    tags: AUTH_TAGS,
    summary: 'Sign in with username and password',
    description:
      '401 for wrong credentials (or while authentication is disabled), 403 for a disabled ' +
      'account, 429 with Retry-After after repeated failures for the username or client address. ' +
      'Failures for one username from many addresses space its attempts apart (429 when the ' +
      'queue is longer than 30 s); two kinds of client skip that queue, never the per-address ' +
      'lockouts: an address that signed in as the user lately (setup counts), and a client that ' +
      'sends back the `device_token` a previous sign-in answered.',
    schema: {
      body: LoginRequest,
      response: {
        200: SignInBody,
        ...Errors.unauthorized,
        ...Errors.forbidden,
        ...Errors.tooMany,
      },
    },
    handler: (request) =>
      runtime.sessions.login(
        request.body.username,
        request.body.password,
        request.ip,
        request.body.device_token,
      ),
  });
}

export function refreshRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'POST',
    path: '/api/auth/refresh',
    auth: 'open',
    tags: AUTH_TAGS,
    summary: 'Exchange a refresh token for a new token pair',
    description:
      'Rotates (docs/decisions.md §28): answers a new pair, and the refresh token sent stops working. ' +
      'Sent again within `stackd.auth.refresh_reuse_grace_sec` (10 s) it still gets a pair ' +
      '(tabs refreshing at once); later, the reuse is taken as a stolen token and every token ' +
      'of that sign-in is revoked. 401 for an invalid, expired, used or revoked refresh ' +
      'token; 403 for a disabled account.',
    schema: {
      body: RefreshRequest,
      response: { 200: TokenPairBody, ...Errors.unauthorized, ...Errors.forbidden },
    },
    handler: (request) => runtime.sessions.refresh(request.body.refresh_token, request.ip),
  });
}

export function verifyRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'POST',
    path: '/api/auth/verify',
    auth: 'open',
    tags: AUTH_TAGS,
    summary: 'Check an access token',
    description:
      'The token goes in the body (`{"token": …}`) or the query string (`?token=`). Always 200: ' +
      '`{"valid": false, "username": null}` for an invalid, expired or refresh token, a ' +
      'disabled or deleted user, or while authentication is disabled.',
    schema: { body: VerifyRequest, query: VerifyQuery, response: VerifyResponse },
    handler: (request) => {
      const token = request.body.token ?? request.query.token;
      if (token === undefined)
        throw new InputError(AUTH_TOKEN_MISSING, 'token is required', { field: 'token' });
      return runtime.sessions.verify(token);
    },
  });
}

export function logoutRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'POST',
    path: '/api/auth/logout',
    // The refresh token is the credential (as in RFC 7009), so a client whose access token has
    // run out can still end its sign-in; an access token sent along is not needed.
    auth: 'open',
    tags: AUTH_TAGS,
    summary: 'Sign out: revoke a refresh token and every token rotated from it',
    description:
      'The refresh token in the body is the credential: no access token is needed (one sent ' +
      'along, even expired, is ignored). The refresh token and ' +
      'its whole sign-in (every token rotated from the same login) stop working at once; access ' +
      'tokens already issued run out on their own (60 minutes by default). 401 for an invalid ' +
      'or expired refresh token.',
    schema: {
      body: RefreshRequest,
      response: { 200: MessageBody, ...Errors.unauthorized },
    },
    handler: async (request) => {
      await runtime.sessions.logout(request.body.refresh_token, request.ip);
      return { message: 'Signed out' };
    },
  });
}
