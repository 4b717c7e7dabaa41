/** Signing in (all open, DECISIONS #9): login, refresh and verify. */
import { InputError } from '../../../sdk/index.js';
import {
  Credentials,
  Errors,
  RefreshRequest,
  TokenPairBody,
  VerifyQuery,
  VerifyRequest,
  VerifyResponse,
} from '../schemas.js';
import { AUTH_TAGS, type AuthRouteDeps } from './route-context.js';

export function registerSessionRoutes({ ctx, runtime }: AuthRouteDeps): void {
  ctx.route({
    method: 'POST',
    path: '/api/auth/login',
    auth: 'open',
    tags: AUTH_TAGS,
    summary: 'Sign in with username and password',
    description:
      '401 for wrong credentials (or while authentication is disabled), 403 for a disabled ' +
      'account, 429 with Retry-After after repeated failures for the username or client address.',
    schema: {
      body: Credentials,
      response: {
        200: TokenPairBody,
        ...Errors.unauthorized,
        ...Errors.forbidden,
        ...Errors.tooMany,
      },
    },
    handler: (request) =>
      runtime.sessions.login(request.body.username, request.body.password, request.ip),
  });

  ctx.route({
    method: 'POST',
    path: '/api/auth/refresh',
    auth: 'open',
    tags: AUTH_TAGS,
    summary: 'Exchange a refresh token for a new token pair',
    description: '401 for an invalid, expired or non-refresh token; 403 for a disabled account.',
    schema: {
      body: RefreshRequest,
      response: { 200: TokenPairBody, ...Errors.unauthorized, ...Errors.forbidden },
    },
    handler: (request) => runtime.sessions.refresh(request.body.refresh_token),
  });

  ctx.route({
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
        throw new InputError('AUTH_TOKEN_MISSING', 'token is required', { field: 'token' });
      return runtime.sessions.verify(token);
    },
  });
}
