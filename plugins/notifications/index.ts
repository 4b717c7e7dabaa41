/**
 * The notifications plugin (docs/decisions.md §22): destinations (webhook, Discord,
 * ntfy, Apprise API), routing with filters and cooldowns, a durable SQLite queue with retries,
 * thresholds from the metrics feed and process events from the supervisor. Wiring only.
 */
import {
  definePlugin,
  derivedFromStack,
  notableEvent,
  OutboundClient,
  processStateChanged,
} from '../../sdk/index.js';
import { NotificationsConfig } from './config.js';
import { deliveryFailed } from './delivery-events.js';
import { DeliveryStore } from './delivery-store.js';
import { DeliveryWorker } from './delivery-worker.js';
import { NotificationService } from './notification-service.js';
import { ProcessEventTranslator } from './process-events.js';
import { eventsRoute, getConfigRoute, saveConfigRoute } from './routes/config-routes.js';
import { clearHistoryRoute, historyRoute, sendRoute, testRoute } from './routes/delivery-routes.js';
import { currentSettings } from './settings.js';
import { ThresholdMonitor } from './threshold-monitor.js';

export default definePlugin({
  name: 'notifications',
  version: '1.0.0',
  apiVersion: 1,
  optionalDependsOn: ['supervisor', 'metrics'],
  config: NotificationsConfig,
  capabilities: ['notifications'],
  register(ctx) {
    ctx.eventKind(deliveryFailed);
    // Live settings: the slice as saved by POST /notifications/config (or edited in the file).
    const settings = derivedFromStack(ctx.stack, currentSettings);
    let lockedLogged = false;
    const deliveries = ctx.exposition.counter<'status'>({
      name: 'stackd_notification_deliveries_total',
      help: 'Notification deliveries entering each status (queued, retrying, completed, failed, suppressed)',
      labelNames: ['status'],
    });
    const store = new DeliveryStore(
      () => ctx.storage.openDatabase('notifications.sqlite'),
      (message) => {
        if (!lockedLogged)
          ctx.logger.warn(`notification storage is locked; retrying in the background: ${message}`);
        lockedLogged = true;
      },
      (status) => deliveries.inc({ status }),
    );
    const outbound = OutboundClient.forPlugin(ctx);
    const worker = new DeliveryWorker(store, settings, ctx.logger, outbound, (failure) =>
      ctx.events.publish(deliveryFailed, {
        subject: failure.destinationId,
        data: {
          delivery_id: failure.deliveryId,
          destination: failure.destination,
          event_type: failure.eventType,
          attempts: failure.attempts,
          error: failure.error,
        },
      }),
    );
    const service = new NotificationService(store, worker, settings, ctx.logger);
    const translator = new ProcessEventTranslator();
    const monitor = new ThresholdMonitor();

    ctx.route(getConfigRoute(ctx.stack));
    ctx.route(saveConfigRoute(ctx.stack, () => worker.wake(), outbound));
    ctx.route(eventsRoute());
    ctx.route(testRoute(service));
    ctx.route(sendRoute(service));
    ctx.route(historyRoute(service));
    ctx.route(clearHistoryRoute(service));

    ctx.onStart(() => {
      store.tryOpen();
      ctx.events.on(notableEvent, (event) => service.emit(event));
      ctx.events.on(processStateChanged, (state) => {
        const event = translator.translate(state);
        if (event !== null) service.emit(event);
      });
      worker.start();
      const config = settings();
      ctx.tasks.every(
        'notification thresholds',
        Math.max(1, config.monitor_interval_sec) * 1000,
        () => {
          const current = settings();
          if (!current.enabled) return;
          for (const event of monitor.check(ctx.metricsFeed.latest(), current.thresholds))
            service.emit(event);
        },
      );
      ctx.tasks.every('notification history prune', 3_600_000, () => {
        if (store.available) store.prune(settings().history_retention_days);
      });
    });
    ctx.onStop(async () => {
      await worker.stop();
      await outbound.close();
    });
  },
});
