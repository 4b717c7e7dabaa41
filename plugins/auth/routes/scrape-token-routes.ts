/**
 * Scrape tokens for Prometheus: create (the token text is shown once), list, revoke. A scrape
 * token reads the metrics exposition and nothing else, so it can sit in a `bearer_token_file`
 * on another machine without handing out a user's rights.
 */
import { MessageBody, Type, defineRoute, NotFoundError, reply } from '../../../sdk/index.js';
import type { AuthRuntime } from '../auth-runtime.js';
import { Errors } from '../schemas.js';
import { AUTH_TAGS } from './route-context.js';
import { AUTH_SCRAPE_TOKEN_NOT_FOUND } from '../errors.js';

const PATH = '/api/auth/scrape-tokens';

const TokenInfo = Type.Object({
  id: Type.String({ description: 'Identifier used to revoke the token' }),
  name: Type.String(),
  created_at: Type.String({ description: 'ISO 8601 UTC' }),
  last_used_at: Type.Union([Type.String(), Type.Null()], {
    description: 'Last scrape with it (ISO 8601 UTC, to the minute), or null',
  }),
});

const CreatedToken = Type.Composite([
  TokenInfo,
  Type.Object({ token: Type.String({ description: 'The bearer token; shown only here' }) }),
]);

const CreateBody = Type.Object({
  name: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'What the token is for (`prometheus on nas`)',
  }),
});

export function createScrapeTokenRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'POST',
    path: PATH,
    tags: AUTH_TAGS,
    summary: 'Create a read-only scrape token for Prometheus',
    description:
      'The token (`stackd_scrape_…`) may only GET `/metrics/prometheus` and `/metrics`; anywhere else it gets 403. Stored hashed: its text is in this answer only.',
    schema: { body: CreateBody, response: { 201: CreatedToken } },
    handler: (request) => reply(201, runtime.scrapeTokens.create(request.body.name.trim())),
  });
}

export function listScrapeTokensRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'GET',
    path: PATH,
    tags: AUTH_TAGS,
    summary: 'List scrape tokens (never their text)',
    schema: { response: Type.Object({ tokens: Type.Array(TokenInfo) }) },
    handler: () => ({ tokens: runtime.scrapeTokens.list() }),
  });
}

export function revokeScrapeTokenRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'DELETE',
    path: `${PATH}/:id`,
    tags: AUTH_TAGS,
    summary: 'Revoke a scrape token',
    schema: {
      params: Type.Object({ id: Type.String({ pattern: '^[0-9a-f]{32}$' }) }),
      response: { 200: MessageBody, ...Errors.notFound },
    },
    handler: (request) => {
      if (!runtime.scrapeTokens.revoke(request.params.id))
        throw new NotFoundError(AUTH_SCRAPE_TOKEN_NOT_FOUND, 'No scrape token with that id', {
          field: 'id',
        });
      return { message: 'Scrape token revoked' };
    },
  });
}
