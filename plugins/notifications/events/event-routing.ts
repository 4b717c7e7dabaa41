/**
 * Routing an event to destinations (docs/original-product.md §9): the filters (enabled, URL, severity,
 * event types, services, recovery), then the cooldown per destination, event type, service and
 * condition — a flapping process makes one notification per cooldown, the rest are recorded as
 * `suppressed`. Forced sends (test, send) skip the filters and cooldowns.
 */
import { randomUUID } from 'node:crypto';
import { NOTABLE_SEVERITIES, redactText, type NotableEvent } from '../../../sdk/index.js';
import type { Destination, NotificationsConfig } from '../config.js';
import type { DeliveryRecord, DeliveryStore } from '../delivery/delivery-store.js';

/** How an event is sent. */
export interface EventRoutingOptions {
  readonly forced: boolean;
  /** Only these destinations (test, send). */
  readonly destinationIds?: readonly string[] | null;
  /** Test: a disabled destination still gets it. */
  readonly allowDisabled?: boolean;
}

const rank = (severity: string): number => {
  const index = NOTABLE_SEVERITIES.indexOf(severity as (typeof NOTABLE_SEVERITIES)[number]);
  return index < 0 ? 0 : index;
};

/** Whether the destination may get this send at all: listed, switched on (or a test), a URL. */
function reachable(destination: Destination, options: EventRoutingOptions): boolean {
  if (options.destinationIds != null && !options.destinationIds.includes(destination.id))
    return false;
  if (!destination.enabled && options.allowDisabled !== true) return false;
  return destination.url.trim() !== '';
}

/** The event type filter; a recovery also matches the type it recovers from. */
function typeMatches(destination: Destination, event: NotableEvent): boolean {
  if (destination.event_types.length === 0) return true;
  if (destination.event_types.includes(event.event_type)) return true;
  return (
    event.event_type === 'recovery' &&
    event.recovered_event_type !== undefined &&
    destination.event_types.includes(event.recovered_event_type)
  );
}

/** The service filter: names compared without case; an event of no service never matches one. */
function serviceMatches(destination: Destination, event: NotableEvent): boolean {
  if (destination.service_names.length === 0) return true;
  const service = event.service_name?.toLowerCase();
  return (
    service !== undefined &&
    destination.service_names.some((name) => name.toLowerCase() === service)
  );
}

function matches(
  destination: Destination,
  event: NotableEvent,
  options: EventRoutingOptions,
): boolean {
  if (!reachable(destination, options)) return false;
  if (options.forced) return true;
  const recovery = event.event_type === 'recovery';
  // A recovery passes the severity floor: the warning it ends did.
  if (!recovery && rank(event.severity) < rank(destination.minimum_severity)) return false;
  if (!typeMatches(destination, event) || !serviceMatches(destination, event)) return false;
  return !recovery || destination.send_recovery;
}

/** Queue (or suppress) an event for every matching destination; returns the rows. */
export function routeEvent(
  store: DeliveryStore,
  config: NotificationsConfig,
  event: NotableEvent,
  options: EventRoutingOptions,
): DeliveryRecord[] {
  const eventId = randomUUID().replace(/-/g, '');
  const title = redactText(event.title).slice(0, 300);
  const body = redactText(event.body).slice(0, 10_000);
  const severity = NOTABLE_SEVERITIES.includes(event.severity) ? event.severity : 'info';
  const metadata: Record<string, unknown> = {
    ...Object.fromEntries(
      Object.entries(event.details ?? {}).map(([key, value]) => [
        key,
        typeof value === 'string' ? redactText(value).slice(0, 2000) : value,
      ]),
    ),
    source: event.source,
    ...(event.condition_key === undefined ? {} : { condition_key: event.condition_key }),
    ...(event.recovered_event_type === undefined
      ? {}
      : { recovered_event_type: event.recovered_event_type }),
  };
  const rows: DeliveryRecord[] = [];
  for (const destination of config.destinations) {
    if (!matches(destination, event, options)) continue;
    const key = [
      'cooldown',
      destination.id,
      event.event_type,
      event.service_name ?? '',
      event.condition_key ?? '',
    ].join('|');
    const last = store.lastSent(key);
    const cooling =
      !options.forced &&
      destination.cooldown_sec > 0 &&
      last !== null &&
      Date.now() / 1000 - last < destination.cooldown_sec;
    if (!cooling) store.markSent(key);
    rows.push(
      store.insert({
        event_id: eventId,
        destination_id: destination.id,
        destination_name: destination.name,
        event_type: event.event_type,
        severity,
        title,
        body,
        service_name: event.service_name ?? null,
        status: cooling ? 'suppressed' : 'queued',
        forced: options.forced,
        allowDisabled: options.allowDisabled === true,
        metadata,
      }),
    );
  }
  return rows;
}
