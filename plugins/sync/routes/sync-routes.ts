/**
 * The request-sync routes, at their documented `/api/request-sync/*` (served at `/request-sync/*`
 * too, like every `/api` path) and at the dashboard's `/seerr-sync/*`: one factory per route,
 * called once per path family.
 */
import { defineRoute, type OutboundClient } from '../../../sdk/index.js';
import { RemoteClient } from '../remote.js';
import type { Replicator } from '../replicator.js';
import {
  ClearFailedQuery,
  ClearFailedResponse,
  FailedResponse,
  StateResponse,
  StatusResponse,
  TestBody,
  TestResponse,
} from '../schemas.js';

/** The two path families the same routes are served under. */
export const SYNC_PREFIXES = ['/api/request-sync', '/seerr-sync'] as const;
export type SyncPrefix = (typeof SYNC_PREFIXES)[number];

const tags = ['request-sync'];

/**
 * Each path family turns on the flag its clients check: the API contract's, and the dashboard's
 * (docs/decisions.md §27).
 */
const capabilityOf = (prefix: SyncPrefix) =>
  prefix === '/api/request-sync' ? 'request_sync' : 'seerr_sync';

export function statusRoute(service: Replicator, prefix: SyncPrefix) {
  return defineRoute({
    method: 'GET',
    path: `${prefix}/status`,
    summary: 'Request sync status',
    tags,
    capability: capabilityOf(prefix),
    schema: { response: StatusResponse },
    handler: () => service.status(),
  });
}

export function failedRoute(service: Replicator, prefix: SyncPrefix) {
  return defineRoute({
    method: 'GET',
    path: `${prefix}/failed`,
    summary: 'Requests that failed to sync',
    tags,
    capability: capabilityOf(prefix),
    schema: { response: FailedResponse },
    handler: () => {
      const items = service.failedItems();
      return { count: items.length, failed_requests: items };
    },
  });
}

export function stateRoute(service: Replicator, prefix: SyncPrefix) {
  return defineRoute({
    method: 'GET',
    path: `${prefix}/state`,
    summary: 'Raw sync state (debugging)',
    tags,
    capability: capabilityOf(prefix),
    schema: { response: StateResponse },
    handler: () => service.rawState(),
  });
}

export function clearFailedRoute(service: Replicator, prefix: SyncPrefix) {
  return defineRoute({
    method: 'DELETE',
    path: `${prefix}/failed`,
    summary: 'Clear failed records so they retry on the next poll',
    tags,
    capability: capabilityOf(prefix),
    schema: { query: ClearFailedQuery, response: ClearFailedResponse },
    handler: async (request) => {
      const cleared = await service.clearFailed(request.query.fingerprint);
      return { message: `Cleared ${cleared} failed record(s)`, cleared };
    },
  });
}

export function testRoute(
  prefix: SyncPrefix,
  outbound: OutboundClient,
  log: (message: string) => void,
) {
  return defineRoute({
    method: 'POST',
    path: `${prefix}/test`,
    summary: 'Probe a request manager (authenticated)',
    tags,
    capability: capabilityOf(prefix),
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
  });
}
