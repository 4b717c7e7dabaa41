/**
 * The notifications domain: events in (from any plugin, the supervisor, the threshold monitor),
 * routed into the durable queue, sent by the worker; test and send (forced: past filters and cooldowns);
 * history. Automatic events need the global switch and usable storage; they are dropped
 * otherwise (the operation that raised them is never affected).
 */
import {
  BadRequestError,
  NOTABLE_SEVERITIES,
  type Logger,
  type NotableEvent,
} from '../../sdk/index.js';
import type { NotificationsConfig } from './config.js';
import type { DeliveryRecord, DeliveryStore } from './delivery/delivery-store.js';
import type { DeliveryWorker } from './delivery/delivery-worker.js';
import { routeEvent } from './events/event-routing.js';
import { DESTINATION_UNKNOWN, NO_DESTINATION, SEVERITY_UNSUPPORTED } from './errors.js';

const TEST_WAIT_MS = 15_000;

/** Events, sends and history. */
export class NotificationService {
  constructor(
    private readonly store: DeliveryStore,
    private readonly worker: DeliveryWorker,
    private readonly config: () => NotificationsConfig,
    private readonly logger: Logger,
  ) {}

  /** An automatic event. */
  emit(event: NotableEvent): void {
    const config = this.config();
    if (!config.enabled || !this.store.available) return;
    try {
      if (routeEvent(this.store, config, event, { forced: false }).length > 0) this.worker.wake();
    } catch (error) {
      this.logger.warn(`notification for ${event.event_type} dropped`, { error: String(error) });
    }
  }

  /** POST /notifications/test: to one destination, even disabled, waiting for the outcome. */
  async test(destinationId: string, title?: string, body?: string): Promise<DeliveryRecord> {
    const config = this.config();
    const destination = config.destinations.find((candidate) => candidate.id === destinationId);
    if (destination === undefined || destination.url.trim() === '')
      throw new BadRequestError(
        DESTINATION_UNKNOWN,
        'Destination was not found or has no configured URL.',
        {
          field: 'destination_id',
        },
      );
    const [row] = routeEvent(
      this.store,
      config,
      {
        event_type: 'manual',
        severity: 'info',
        title: title?.trim() || 'stackd notification test',
        body: body?.trim() || 'Your stackd notification destination is configured correctly.',
        source: 'notifications',
      },
      { forced: true, destinationIds: [destinationId], allowDisabled: true },
    );
    if (row === undefined) throw new Error('the test delivery was not queued');
    this.worker.wake();
    const deadline = Date.now() + TEST_WAIT_MS;
    for (;;) {
      const current = this.store.get(row.id) ?? row;
      if (current.status !== 'queued' || Date.now() >= deadline) return current;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** POST /notifications/send: to every enabled destination with a URL (or the listed ones). */
  send(title: string, body: string, severity: string, destinationIds?: readonly string[] | null) {
    if (!(NOTABLE_SEVERITIES as readonly string[]).includes(severity))
      throw new BadRequestError(SEVERITY_UNSUPPORTED, 'Unsupported severity.', {
        field: 'severity',
      });
    const rows = routeEvent(
      this.store,
      this.config(),
      {
        event_type: 'manual',
        severity: severity as NotableEvent['severity'],
        title,
        body,
        source: 'notifications',
      },
      { forced: true, destinationIds: destinationIds ?? null },
    );
    if (rows.length === 0)
      throw new BadRequestError(
        NO_DESTINATION,
        'No enabled destination with a configured URL matched the request.',
        { field: 'destination_ids' },
      );
    this.worker.wake();
    return { status: 'queued' as const, delivery_ids: rows.map((row) => row.id) };
  }

  history(limit: number, status?: string, eventType?: string): DeliveryRecord[] {
    return this.store.history(limit, status, eventType);
  }

  clearHistory(): number {
    return this.store.clearHistory();
  }
}
