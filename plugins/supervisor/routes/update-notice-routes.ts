/**
 * GET /process/update-notices: the DUMB dashboard asks on every page for updates of the project
 * and its services. stackd does not update itself or its services, so the answer is always
 * "none" in the shape the dashboard reads (docs/decisions.md §27), never an error.
 */
import { defineRoute } from '../../../sdk/index.js';
import { UpdateNoticesBody, UpdateNoticesQuery } from '../schemas.js';

export function updateNoticesRoute() {
  return defineRoute({
    method: 'GET',
    path: '/process/update-notices',
    summary: 'Update notices (always none: stackd does not update itself)',
    tags: ['process'],
    schema: {
      query: UpdateNoticesQuery,
      response: UpdateNoticesBody,
    },
    handler: ({ query }) => ({ scope: query.scope, available: [], info: [], applied: [] }),
  });
}
