/**
 * The request-sync routes, at their documented `/api/request-sync/*` (served at `/request-sync/*`
 * too, like every `/api` path) and at the dashboard's `/seerr-sync/*`.
 */
import { defineRoute, type OutboundClient } from '../../../sdk/index.js';
import { RemoteClient } from '../remote.js';
import {
  ClearFailedQuery,
  ClearFailedResponse,
  FailedResponse,
  StateResponse,
  StatusResponse,
  TestBody,
  TestResponse,
} from '../schemas.js';
import type { Replicator } from '../replicator.js';

const tags = ['request-sync'];

export function syncRoutes(
  service: Replicator,
  prefix: '/api/request-sync' | '/seerr-sync',
  outbound: OutboundClient,
  log: (message: string) => void,
) {
  // Each path family turns on the flag its clients check: the API contract's, and the dashboard's (docs/decisions.md §27).
  const capability = prefix === '/api/request-sync' ? 'request_sync' : 'seerr_sync';
  return {
    status: defineRoute({
      method: 'GET',
      path: `${prefix}/status`,
      summary: 'Request sync status',
      tags,
      capability,
      schema: { response: StatusResponse },
      handler: () => service.status(),
    }),
    failed: defineRoute({
      method: 'GET',
      path: `${prefix}/failed`,
      summary: 'Requests that failed to sync',
      tags,
      capability,
      schema: { response: FailedResponse },
      handler: () => {
        const items = service.failedItems();
        return { count: items.length, failed_requests: items };
      },
    }),
    state: defineRoute({
      method: 'GET',
      path: `${prefix}/state`,
      summary: 'Raw sync state (debugging)',
      tags,
      capability,
      schema: { response: StateResponse },
      handler: () => service.rawState(),
    }),
    clearFailed: defineRoute({
      method: 'DELETE',
      path: `${prefix}/failed`,
      summary: 'Clear failed records so they retry on the next poll',
      tags,
      capability,
      schema: { query: ClearFailedQuery, response: ClearFailedResponse },
      handler: async (request) => {
        const cleared = await service.clearFailed(request.query.fingerprint);
        return { message: `Cleared ${cleared} failed record(s)`, cleared };
      },
    }),
    test: defineRoute({
      method: 'POST',
      path: `${prefix}/test`,
      summary: 'Probe a request manager (authenticated)',
      tags,
      capability,
      schema: { body: TestBody, response: TestResponse },
      handler: async (request) => {
        outbound.checkUrl(request.body.url, 'url');
        const client = new RemoteClient(request.body.url, request.body.api_key, outbound);
        try {
          return { ok: true, status: await client.probe() };
        } catch (error) {
          // One answer for a closed port, a refused address and an error status: the test route
          // must not tell which addresses answer. The cause goes to the log.
          log(`request-sync test of ${request.body.url} failed: ${(error as Error).message}`);
          return { ok: false, detail: 'could not reach the provider' };
        } finally {
          await client.close();
        }
      },
    }),
  };
}
