/**
 * Scrape tokens for Prometheus: create (the token text is shown once), list, revoke. A scrape
 * token reads the metrics exposition and nothing else, so it can sit in a `bearer_token_file`
 * on another machine without handing out a user's rights.
 */
import { MessageBody, defineRoute, NotFoundError, reply } from '../../../sdk/index.js';
import type { AuthRuntime } from '../auth-runtime.js';
import { AUTH_TAGS } from './route-context.js';
import { AUTH_SCRAPE_TOKEN_NOT_FOUND } from '../errors.js';
import {
  CreatedScrapeToken,
  CreateScrapeTokenBody,
  Errors,
  ScrapeTokenList,
  ScrapeTokenParams,
} from '../schemas.js';

const PATH = '/api/auth/scrape-tokens';

export function createScrapeTokenRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'POST',
    path: PATH,
    tags: AUTH_TAGS,
    summary: 'Create a read-only scrape token for Prometheus',
    description:
      'The token (`stackd_scrape_…`) may only GET `/metrics/prometheus` and `/metrics`; anywhere else it gets 403. Stored hashed: its text is in this answer only.',
    schema: { body: CreateScrapeTokenBody, response: { 201: CreatedScrapeToken } },
    handler: (request) => reply(201, runtime.scrapeTokens.create(request.body.name.trim())),
  });
}

export function listScrapeTokensRoute(runtime: AuthRuntime) {
  return defineRoute({
    method: 'GET',
    path: PATH,
    tags: AUTH_TAGS,
    summary: 'List scrape tokens (never their text)',
    schema: { response: ScrapeTokenList },
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
      params: ScrapeTokenParams,
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
