/**
 * The notifications plugin's config slice (`stackd.notifications`): the global switch and the
 * delivery settings. Destinations and rules arrive in a later increment.
 */
import { Type, type Static } from '../../sdk/index.js';

export const Destination = Type.Object({
  id: Type.String({ minLength: 1, description: 'Stable destination id' }),
  kind: Type.Optional(
    Type.Union(
      [
        Type.Literal('webhook'),
        Type.Literal('discord'),
        Type.Literal('ntfy'),
        Type.Literal('apprise'),
      ],
      {
        description: 'Payload convention (default webhook)',
      },
    ),
  ),
  enabled: Type.Boolean({ default: true, description: 'Destination switch' }),
  url: Type.String({ default: '', description: 'Receiver URL (write-only secret)' }),
  headers: Type.Record(Type.String(), Type.String(), {
    default: {},
    description: 'Extra request headers (write-only secret)',
  }),
  service_names: Type.Array(Type.String(), {
    default: [],
    description: 'Exact names of enabled processes; empty means all',
  }),
});
export type Destination = Static<typeof Destination>;

export const NotificationsConfig = Type.Object({
  enabled: Type.Boolean({
    default: false,
    description: 'Global switch for outbound notifications',
  }),
  monitor_interval_sec: Type.Integer({
    minimum: 1,
    default: 30,
    description: 'Seconds between threshold checks',
  }),
  history_retention_days: Type.Integer({
    minimum: 1,
    default: 30,
    description: 'Days delivery history is kept',
  }),
  max_attempts: Type.Integer({
    minimum: 1,
    default: 5,
    description: 'Delivery attempts per message',
  }),
  retry_base_sec: Type.Integer({
    minimum: 1,
    default: 10,
    description: 'Base delay of the exponential retry backoff, in seconds',
  }),
  destinations: Type.Array(Destination, { default: [], description: 'Where notifications go' }),
});
export type NotificationsConfig = Static<typeof NotificationsConfig>;
