/** Failed notification deliveries in the event journal (never a URL, header or token). */
import { defineEventKind, Type } from '../../../sdk/index.js';

export const deliveryFailed = defineEventKind({
  kind: 'notification.delivery.failed',
  description:
    'A notification delivery gave up: every attempt failed, or the receiver refused it for good.',
  subject: "The destination's id.",
  data: Type.Object({
    delivery_id: Type.String(),
    destination: Type.String({ description: "The destination's name." }),
    event_type: Type.String({ description: 'The notified event type.' }),
    attempts: Type.Integer({ minimum: 0 }),
    error: Type.String(),
  }),
});

/** What the worker reports when a delivery gives up. */
export interface DeliveryFailure {
  readonly deliveryId: string;
  readonly destinationId: string;
  readonly destination: string;
  readonly eventType: string;
  readonly attempts: number;
  readonly error: string;
}
