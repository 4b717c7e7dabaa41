/**
 * Authentication mode routes (docs/decisions.md §8): status and setup are open
 * (setup answers 400 once users exist); skip-setup, enable and disable need a token while
 * authentication is enabled, so an anonymous caller can never turn it off (docs/decisions.md §8/§9).
 */
import { MessageBody, defineRoute } from '../../../sdk/index.js';
import { AuthStatusBody, Credentials, Errors, SetupResponse } from '../schemas.js';
import type { AuthRuntime } from '../auth-runtime.js';
import { AUTH_TAGS } from './route-context.js';

export function authStatusRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'GET',
    path: '/api/auth/status',
    auth: 'open',
    tags: AUTH_TAGS,
    summary: 'Authentication status',
    schema: { response: AuthStatusBody },
    handler: () => runtime.accounts.status(),
  });
}

export function setupRoute(runtime: AuthRuntime) {
  return defineRoute({
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
      const device = await runtime.sessions.setUp(request.body.username, request.ip);
      return {
        message: 'Authentication set up: first user created and signed in',
        ...pair,
        device_token: device,
      };
    },
  });
}

export function skipSetupRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'POST',
    path: '/api/auth/skip-setup',
    tags: AUTH_TAGS,
    summary: 'Skip the setup wizard (authentication disabled)',
    description:
      'Allowed in any state; turns authentication off. While authentication is enabled it ' +
      'needs an access token like every other route (401 without one).',
    schema: { response: MessageBody },
    handler: () => {
      runtime.accounts.skipSetup();
      return { message: 'Authentication setup skipped successfully' };
    },
  });
}

export function enableRoute(runtime: AuthRuntime) {
  return defineRoute({
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
}

export function disableRoute(runtime: AuthRuntime) {
  return defineRoute({
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
