/**
 * GET /process/update-notices: the DUMB dashboard asks on every page for updates of the project
 * and its services. stackd does not update itself or its services, so the answer is always
 * "none" in the shape the dashboard reads (docs/decisions.md §27), never an error.
 */
import { Type, defineRoute } from '../../../sdk/index.js';

const Notices = Type.Array(Type.Record(Type.String(), Type.Unknown()), {
  description: 'Always empty: stackd has no self-update',
});

export function updateNoticesRoute() {
  return defineRoute({
    method: 'GET',
    path: '/process/update-notices',
    summary: 'Update notices (always none: stackd does not update itself)',
    tags: ['process'],
    schema: {
      query: Type.Object({ scope: Type.String({ default: 'project' }) }),
      response: Type.Object({
        scope: Type.String(),
        available: Notices,
        info: Notices,
        applied: Notices,
      }),
    },
    handler: ({ query }) => ({ scope: query.scope, available: [], info: [], applied: [] }),
  });
}
