/**
 * Authentication mode routes (SPEC "Authentication mode" table): status, setup, skip-setup are
 * open (DECISIONS #9); enable and disable need a token while authentication is enabled.
 */
import { MessageBody } from '../../../sdk/index.js';
import { AuthStatusBody, Credentials, Errors, SetupResponse } from '../schemas.js';
import { AUTH_TAGS, type AuthRouteDeps } from './route-context.js';

export function registerModeRoutes({ ctx, runtime }: AuthRouteDeps): void {
  ctx.route({
    method: 'GET',
    path: '/api/auth/status',
    auth: 'open',
    tags: AUTH_TAGS,
    summary: 'Authentication status',
    schema: { response: AuthStatusBody },
    handler: () => runtime.accounts.status(),
  });

  ctx.route({
    method: 'POST',
    path: '/api/auth/setup',
    auth: 'open',
    tags: AUTH_TAGS,
    summary: 'First-run setup: create the first user and enable authentication',
    description:
      'Only while no user exists (400 afterwards). Returns a token pair for the new user.',
    schema: {
      body: Credentials,
      response: { 200: SetupResponse, ...Errors.badRequest },
    },
    handler: async (request) => {
      const pair = await runtime.accounts.setup(request.body.username, request.body.password);
      return { message: 'Authentication set up: first user created and signed in', ...pair };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/auth/skip-setup',
    auth: 'open',
    tags: AUTH_TAGS,
    summary: 'Skip the setup wizard (authentication disabled)',
    description: 'Allowed in any state; turns authentication off.',
    schema: { response: MessageBody },
    handler: () => {
      runtime.accounts.skipSetup();
      return { message: 'Authentication setup skipped successfully' };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/auth/enable',
    tags: AUTH_TAGS,
    summary: 'Enable authentication',
    description: '400 when no user exists.',
    schema: { response: { 200: MessageBody, ...Errors.badRequest } },
    handler: () => {
      runtime.accounts.enable();
      return { message: 'Authentication enabled successfully' };
    },
  });

  ctx.route({
    method: 'POST',
    path: '/api/auth/disable',
    tags: AUTH_TAGS,
    summary: 'Disable authentication (every endpoint open)',
    schema: { response: MessageBody },
    handler: () => {
      runtime.accounts.disable();
      return { message: 'Authentication disabled successfully' };
    },
  });
}
