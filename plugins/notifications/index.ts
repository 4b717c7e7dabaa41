/**
 * The notifications plugin (docs/decisions.md §22): destinations (webhook, Discord,
 * ntfy, Apprise API), routing with filters and cooldowns, a durable SQLite queue with retries,
 * thresholds from the metrics feed and process events from the supervisor. Wiring only.
 */
import { definePlugin } from '../../sdk/index.js';
import { NotificationsConfig } from './config.js';
import { NotificationsRuntime } from './notifications-runtime.js';
import { deliveryFailed } from './delivery/delivery-events.js';
import { eventsRoute, getConfigRoute, saveConfigRoute } from './routes/config-routes.js';
import { clearHistoryRoute, historyRoute, sendRoute, testRoute } from './routes/delivery-routes.js';

export default definePlugin({
  name: 'notifications',
  version: '1.0.0',
  apiVersion: 1,
  optionalDependsOn: ['supervisor', 'metrics'],
  config: NotificationsConfig,
  capabilities: ['notifications'],
  register(ctx) {
    ctx.eventKind(deliveryFailed);
    const runtime = new NotificationsRuntime(ctx);

    ctx.route(getConfigRoute(ctx.stack));
    ctx.route(saveConfigRoute(ctx.stack, () => runtime.worker.wake(), runtime.outbound));
    ctx.route(eventsRoute());
    ctx.route(testRoute(runtime.service));
    ctx.route(sendRoute(runtime.service));
    ctx.route(historyRoute(runtime.service));
    ctx.route(clearHistoryRoute(runtime.service));

    ctx.onStart(() => runtime.start());
    ctx.onStop(() => runtime.stop());
  },
});
