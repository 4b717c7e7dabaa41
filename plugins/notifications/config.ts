/**
 * The notifications plugin's config slice (`stackd.notifications`): the global switch and the
 * delivery settings. Destinations and rules arrive in a later increment.
 */
import { Type, type Static } from '../../sdk/index.js';

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
});
export type NotificationsConfig = Static<typeof NotificationsConfig>;
