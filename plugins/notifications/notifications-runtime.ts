/**
 * The plugin's parts, built in one place: the live settings, the delivery store (with its
 * lock warning and delivery counter), the worker, the service, and what feeds events in (the
 * notable-event bus, the supervisor's state changes, the threshold monitor). Routes reach the
 * parts through this object; `start` and `stop` are the plugin's hooks.
 */
import {
  derivedFromStack,
  notableEvent,
  OutboundClient,
  processStateChanged,
  type PluginContext,
} from '../../sdk/index.js';
import type { NotificationsConfig } from './config.js';
import { deliveryFailed } from './delivery/delivery-events.js';
import { DeliveryStore } from './delivery/delivery-store.js';
import { DeliveryWorker } from './delivery/delivery-worker.js';
import { NotificationService } from './notification-service.js';
import { ProcessEventTranslator } from './events/process-events.js';
import { currentSettings } from './settings.js';
import { ThresholdMonitor } from './events/threshold-monitor.js';

/** File name of the delivery database inside the plugin's storage folder. */
export const DATABASE_FILE = 'notifications.sqlite';
const PRUNE_EVERY_MS = 3_600_000;

/** What the runtime needs from the plugin context. */
export type NotificationsRuntimeContext = Pick<
  PluginContext,
  'stack' | 'host' | 'logger' | 'storage' | 'exposition' | 'events' | 'tasks' | 'metricsFeed'
>;

/** The notifications plugin's parts and hooks. */
export class NotificationsRuntime {
  /** Live settings: the slice as saved by POST /notifications/config (or edited in the file). */
  readonly settings: () => NotificationsConfig;
  readonly outbound: OutboundClient;
  readonly store: DeliveryStore;
  readonly worker: DeliveryWorker;
  readonly service: NotificationService;
  private readonly translator = new ProcessEventTranslator();
  private readonly monitor = new ThresholdMonitor();

  constructor(private readonly ctx: NotificationsRuntimeContext) {
    this.settings = derivedFromStack(ctx.stack, currentSettings);
    this.store = this.openStore();
    this.outbound = OutboundClient.forPlugin(ctx);
    this.worker = new DeliveryWorker(
      this.store,
      this.settings,
      ctx.logger,
      this.outbound,
      (failure) =>
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
    this.service = new NotificationService(this.store, this.worker, this.settings, ctx.logger);
  }

  private openStore(): DeliveryStore {
    const { ctx } = this;
    let lockedLogged = false;
    const deliveries = ctx.exposition.counter<'status'>({
      name: 'stackd_notification_deliveries_total',
      help: 'Notification deliveries entering each status (queued, retrying, completed, failed, suppressed)',
      labelNames: ['status'],
    });
    return new DeliveryStore(
      () => ctx.storage.openDatabase(DATABASE_FILE),
      (message) => {
        if (!lockedLogged)
          ctx.logger.warn(`notification storage is locked; retrying in the background: ${message}`);
        lockedLogged = true;
      },
      (status) => deliveries.inc({ status }),
    );
  }

  /** Open the store, listen for events, start the worker and the periodic tasks. */
  start(): void {
    const { ctx, service } = this;
    this.store.tryOpen();
    ctx.events.on(notableEvent, (event) => service.emit(event));
    ctx.events.on(processStateChanged, (state) => {
      const event = this.translator.translate(state);
      if (event !== null) service.emit(event);
    });
    this.worker.start();
    const intervalMs = Math.max(1, this.settings().monitor_interval_sec) * 1000;
    ctx.tasks.every('notification thresholds', intervalMs, () => this.checkThresholds());
    ctx.tasks.every('notification history prune', PRUNE_EVERY_MS, () => {
      if (this.store.available) this.store.prune(this.settings().history_retention_days);
    });
  }

  private checkThresholds(): void {
    const current = this.settings();
    if (!current.enabled) return;
    for (const event of this.monitor.check(this.ctx.metricsFeed.latest(), current.thresholds))
      this.service.emit(event);
  }

  async stop(): Promise<void> {
    await this.worker.stop();
    await this.outbound.close();
  }
}
