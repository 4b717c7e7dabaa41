/** Request and response schemas of the notification routes. */
import { ErrorBody, NOTABLE_EVENT_TYPES, NOTABLE_SEVERITIES, Type } from '../../sdk/index.js';
import { Destination, NotificationsConfig } from './config.js';

const PublicDestination = Type.Object({
  ...Destination.properties,
  url: Type.Literal('', { description: 'Always blank: write-only' }),
  headers: Type.Object({}, { description: 'Always empty: write-only' }),
  url_configured: Type.Boolean(),
  headers_configured: Type.Boolean(),
});

export const PublicConfig = Type.Object({
  ...NotificationsConfig.properties,
  destinations: Type.Array(PublicDestination),
});

export const SaveConfigBody = Type.Object({
  config: Type.Record(Type.String(), Type.Unknown(), {
    description:
      'The settings (known top-level keys replace the saved ones). A blank url or empty headers keeps the saved value of the same destination id; service_names must be enabled processes (400 naming them).',
  }),
});

export const EventsBody = Type.Object({
  event_types: Type.Array(Type.String(), {
    description: `Event types stackd emits: ${NOTABLE_EVENT_TYPES.join(', ')}`,
  }),
  severities: Type.Array(Type.String(), { description: NOTABLE_SEVERITIES.join(' < ') }),
});

export const Delivery = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  destination_id: Type.String(),
  destination_name: Type.String(),
  event_type: Type.String(),
  severity: Type.String(),
  title: Type.String(),
  body: Type.String(),
  service_name: Type.Union([Type.String(), Type.Null()]),
  status: Type.Union(
    ['queued', 'retrying', 'completed', 'failed', 'suppressed'].map((status) =>
      Type.Literal(status),
    ),
  ),
  attempts: Type.Integer(),
  forced: Type.Boolean({ description: 'A test or manual send (bypasses switches and filters)' }),
  next_attempt_at: Type.Union([Type.Number(), Type.Null()], { description: 'Epoch seconds' }),
  error: Type.Union([Type.String(), Type.Null()], {
    description: 'Redacted; URLs cut to their scheme',
  }),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.Number(),
  updated_at: Type.Number(),
  sent_at: Type.Union([Type.Number(), Type.Null()]),
});

export const TestBody = Type.Object({
  destination_id: Type.String({ minLength: 1 }),
  title: Type.Optional(Type.String({ maxLength: 300 })),
  body: Type.Optional(Type.String({ maxLength: 10_000 })),
});

export const SendBody = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 300 }),
  body: Type.String({ minLength: 1, maxLength: 10_000 }),
  severity: Type.String({ default: 'info' }),
  destination_ids: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
});
export const SendResult = Type.Object({
  status: Type.Literal('queued'),
  delivery_ids: Type.Array(Type.String()),
});

export const HistoryQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
  status: Type.Optional(Type.String()),
  event_type: Type.Optional(Type.String()),
});
export const HistoryBody = Type.Object({ items: Type.Array(Delivery) });
export const DeletedBody = Type.Object({ deleted: Type.Integer() });

export const Errors = {
  badRequest: { 400: ErrorBody },
  unavailable: { 503: ErrorBody },
};
