/** The sync plugin: one-way replication of requests between request managers. Wiring only. */
import { definePlugin } from '../../sdk/index.js';
import { SyncConfig } from './config.js';
import { CYCLE_EVENT_KINDS } from './cycle-events.js';
import {
  SYNC_PREFIXES,
  clearFailedRoute,
  failedRoute,
  stateRoute,
  statusRoute,
  testRoute,
} from './routes/sync-routes.js';
import { SyncRuntime } from './sync-runtime.js';

export default definePlugin({
  name: 'sync',
  version: '0.1.0',
  apiVersion: 1,
  // seerr_sync: the flag DUMB's dashboard checks before showing its request-sync panel.
  capabilities: ['request_sync', 'seerr_sync'],
  config: SyncConfig,
  register(ctx) {
    for (const kind of CYCLE_EVENT_KINDS) ctx.eventKind(kind);
    const runtime = new SyncRuntime(ctx);
    const { replicator, outbound } = runtime;
    // The documented /api/request-sync paths (core serves them without /api too) and the
    // dashboard's /seerr-sync alias (core serves that under /api too).
    for (const prefix of SYNC_PREFIXES) {
      ctx.route(statusRoute(replicator, prefix));
      ctx.route(failedRoute(replicator, prefix));
      ctx.route(stateRoute(replicator, prefix));
      ctx.route(clearFailedRoute(replicator, prefix));
      ctx.route(testRoute(prefix, outbound, (message) => ctx.logger.warn(message)));
    }
    ctx.onStart(() => runtime.start());
    ctx.onStop(() => runtime.stop());
  },
});
