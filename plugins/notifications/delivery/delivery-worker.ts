/**
 * The delivery worker (docs/original-product.md §10): wakes on new work or every second, sends due rows
 * concurrently (one slow receiver never holds up another), retries with exponential backoff
 * from retry_base_sec (at least any Retry-After), gives up after max_attempts, and never retries
 * a 4xx other than 408/429. Rows only change state in SQLite, so a restart (or a SIGKILL)
 * resumes where it stopped.
 */
import type { Logger, OutboundClient } from '../../../sdk/index.js';
import type { NotificationsConfig } from '../config.js';
import type { DeliveryFailure } from './delivery-events.js';
import type { DeliveryStore } from './delivery-store.js';
import { PAYLOADS } from './payloads/index.js';
import { send } from './sender.js';

const BATCH = 20;
const DISABLED_POSTPONE_SEC = 30;

/** Sends what is due. */
const LOCKED_RETRY_MS = 1000;
const HELD_RECHECK_MS = 30_000;
const MAX_SLEEP_MS = 60_000;

export class DeliveryWorker {
  private readonly inFlight = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly store: DeliveryStore,
    private readonly config: () => NotificationsConfig,
    private readonly logger: Logger,
    private readonly outbound: OutboundClient,
    /** Told when a delivery gives up (the event journal). */
    private readonly onGaveUp: (failure: DeliveryFailure) => void = () => undefined,
  ) {}

  /** Run soon (new rows). */
  wake(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pass(), 0);
  }

  start(): void {
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.abort.abort();
    while (this.inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /**
   * Sleep until the next row is due. With nothing queued there is no timer at all: new rows
   * wake the worker. Rows held while notifications are off are looked at again after a while
   * (a config change wakes it sooner); a locked store is retried after a second.
   */
  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    let delayMs: number | null = LOCKED_RETRY_MS;
    try {
      const next = this.store.nextDueAt();
      if (next === null) delayMs = null;
      else if (!this.config().enabled) delayMs = HELD_RECHECK_MS;
      else delayMs = Math.min(MAX_SLEEP_MS, Math.max(10, next * 1000 - Date.now()));
    } catch {
      /* locked: the next pass tries again */
    }
    if (delayMs === null) return;
    this.timer = setTimeout(() => this.pass(), delayMs);
    this.timer.unref();
  }

  private pass(): void {
    try {
      if (!this.store.available) return;
      const config = this.config();
      for (const row of this.store.due(BATCH, this.inFlight)) {
        // The global switch holds automatic rows; forced ones (test, send) go regardless.
        if (!config.enabled && !row.forced) continue;
        this.inFlight.add(row.id);
        void this.deliver(row.id, row.destination_id, row.attempts, row.allowDisabled).finally(
          () => {
            this.inFlight.delete(row.id);
            this.wake();
          },
        );
      }
    } catch (error) {
      this.logger.warn('notification delivery pass failed', { error: String(error) });
    } finally {
      this.schedule();
    }
  }

  private async deliver(
    id: string,
    destinationId: string,
    attempts: number,
    allowDisabled: boolean,
  ): Promise<void> {
    const config = this.config();
    const destination = config.destinations.find((candidate) => candidate.id === destinationId);
    if (destination === undefined) {
      this.giveUp(
        id,
        { id: destinationId, name: destinationId },
        attempts + 1,
        'Destination no longer exists.',
      );
      return;
    }
    if (!destination.enabled && !allowDisabled) {
      this.store.postpone(id, Date.now() / 1000 + DISABLED_POSTPONE_SEC);
      return;
    }
    const row = this.store.get(id);
    if (row === undefined) return;
    const request = PAYLOADS[destination.provider](destination.url, {
      event_id: row.event_id,
      event_type: row.event_type,
      severity: row.severity,
      title: row.title,
      body: row.body,
      service_name: row.service_name,
      timestamp: row.created_at,
    });
    const outcome = await send(
      request,
      destination.headers,
      destination.verify_tls,
      this.outbound,
      (cause) => this.logger.warn(`notification to ${destination.name} failed: ${cause}`),
      this.abort.signal,
    );
    if (this.stopped && outcome.kind !== 'ok') return; // cut off by the stop: it goes out next start
    const tries = attempts + 1;
    if (outcome.kind === 'ok') this.store.completed(id, tries);
    else if (outcome.kind === 'fatal' || tries >= config.max_attempts)
      this.giveUp(id, destination, tries, outcome.error, row.event_type);
    else {
      const backoff = config.retry_base_sec * 2 ** (tries - 1);
      const wait = Math.max(backoff, outcome.retryAfterSec ?? 0);
      this.store.retry(id, tries, outcome.error, Date.now() / 1000 + wait);
    }
  }

  private giveUp(
    id: string,
    destination: { readonly id: string; readonly name: string },
    attempts: number,
    error: string,
    eventType = this.store.get(id)?.event_type ?? '',
  ): void {
    this.store.failed(id, attempts, error);
    this.onGaveUp({
      deliveryId: id,
      destinationId: destination.id,
      destination: destination.name,
      eventType,
      attempts,
      error,
    });
  }
}
