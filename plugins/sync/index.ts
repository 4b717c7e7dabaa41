/** The sync plugin: one-way replication of requests between request managers. Wiring only. */
import { definePlugin, OutboundClient } from '../../sdk/index.js';
import { SyncConfig, syncConfigOf, validateSyncSlice } from './config.js';
import { CYCLE_EVENT_KINDS } from './cycle-events.js';
import { seerrSyncView } from './dashboard-view.js';
import {
  SYNC_PREFIXES,
  clearFailedRoute,
  failedRoute,
  stateRoute,
  statusRoute,
  testRoute,
} from './routes/sync-routes.js';
import { Replicator } from './replicator.js';
import { resolveSubordinates } from './subordinates.js';

export default definePlugin({
  name: 'sync',
  version: '0.1.0',
  apiVersion: 1,
  // seerr_sync: the flag DUMB's dashboard checks before showing its request-sync panel.
  capabilities: ['request_sync', 'seerr_sync'],
  config: SyncConfig,
  register(ctx) {
    for (const kind of CYCLE_EVENT_KINDS) ctx.eventKind(kind);
    const cycles = ctx.exposition.counter<'outcome'>({
      name: 'stackd_sync_cycles_total',
      help: 'Request-sync cycles by outcome (ok, failed: the primary could not be polled)',
      labelNames: ['outcome'],
    });
    const requestFailures = ctx.exposition.counter({
      name: 'stackd_sync_request_failures_total',
      help: 'Requests that failed to sync to a subordinate',
    });
    const outbound = OutboundClient.forPlugin(ctx);
    const service = new Replicator(
      ctx.storage,
      ctx.events,
      ctx.logger,
      outbound,
      (failed, newFailures) => {
        cycles.inc({ outcome: failed ? 'failed' : 'ok' });
        requestFailures.inc({}, newFailures);
      },
    );
    // The documented /api/request-sync paths (core serves them without /api too) and the
    // dashboard's /seerr-sync alias (core serves that under /api too).
    for (const prefix of SYNC_PREFIXES) {
      ctx.route(statusRoute(service, prefix));
      ctx.route(failedRoute(service, prefix));
      ctx.route(stateRoute(service, prefix));
      ctx.route(clearFailedRoute(service, prefix));
      ctx.route(testRoute(prefix, outbound, (message) => ctx.logger.warn(message)));
    }
    const applyConfig = (): void => {
      const document = ctx.stack.read();
      const config = syncConfigOf(document);
      service.apply(config, resolveSubordinates(config, document));
    };
    const removeValidator = ctx.stack.addValidator((candidate) => {
      validateSyncSlice(candidate);
      const config = syncConfigOf(candidate);
      if (config.primary) outbound.checkUrl(config.primary.url, 'stackd.sync.primary.url');
      config.subordinates.forEach((sub, index) =>
        outbound.checkUrl(sub.url, `stackd.sync.subordinates.${index}.url`),
      );
    });
    const unsubscribe = ctx.stack.onChange(() => applyConfig());
    // DUMB's dashboard edits these settings as `seerr_sync` (docs/decisions.md §27).
    const removeView = ctx.stack.addView(seerrSyncView);
    ctx.onStart(async () => {
      await service.load();
      applyConfig();
    });
    ctx.onStop(async () => {
      unsubscribe();
      removeValidator();
      removeView();
      await service.stop();
      await outbound.close();
    });
  },
});
