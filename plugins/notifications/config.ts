/**
 * The notifications plugin's config slice (`stackd.notifications`, docs/original-product.md §8): the
 * global switch, delivery settings, thresholds and destinations. URLs and headers are secrets:
 * write-only (GET shows url_configured / headers_configured).
 */
import { Type, type Static } from '../../sdk/index.js';
import { NOTABLE_SEVERITIES } from '../../sdk/index.js';

const Severity = Type.Union(
  NOTABLE_SEVERITIES.map((severity) => Type.Literal(severity)),
  { description: 'info < success < warning < critical' },
);

export const Destination = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 120, description: 'Stable id (random when blank)' }),
  name: Type.String({ minLength: 1, maxLength: 120, default: 'Notification destination' }),
  enabled: Type.Boolean({ default: true }),
  provider: Type.Union(
    [
      Type.Literal('webhook'),
      Type.Literal('discord'),
      Type.Literal('ntfy'),
      Type.Literal('apprise'),
    ],
    {
      default: 'webhook',
      description:
        'webhook: JSON POST of the event; discord: a Discord webhook URL; ntfy: a topic URL (https://ntfy.sh/<topic>); apprise: an Apprise API server notify URL (http://apprise:8000/notify/<key>)',
    },
  ),
  url: Type.String({ maxLength: 4096, default: '', description: 'Receiver URL (write-only)' }),
  headers: Type.Record(Type.String(), Type.String(), {
    default: {},
    description: 'Extra request headers (write-only)',
  }),
  verify_tls: Type.Boolean({ default: true }),
  minimum_severity: Type.Union(
    NOTABLE_SEVERITIES.map((severity) => Type.Literal(severity)),
    { default: 'warning', description: 'Events below this severity are not sent here' },
  ),
  event_types: Type.Array(Type.String(), {
    default: [],
    description: 'Only these event types (empty: all)',
  }),
  service_names: Type.Array(Type.String(), {
    default: [],
    description: 'Only events of these processes (exact names of enabled processes; empty: all)',
  }),
  cooldown_sec: Type.Integer({
    minimum: 0,
    maximum: 604_800,
    default: 300,
    description: 'One notification per event type, service and condition within this time',
  }),
  send_recovery: Type.Boolean({ default: true }),
});
export type Destination = Static<typeof Destination>;

export const Thresholds = Type.Object(
  {
    cpu_percent: Type.Number({ minimum: 1, maximum: 100, default: 85 }),
    memory_percent: Type.Number({ minimum: 1, maximum: 100, default: 85 }),
    disk_percent: Type.Number({
      minimum: 1,
      maximum: 100,
      default: 90,
      description: 'Per path of stackd.metrics.filesystem_paths',
    }),
    inode_percent: Type.Number({ minimum: 1, maximum: 100, default: 90 }),
    database_pressure: Type.Union(
      [Type.Literal('moderate'), Type.Literal('high'), Type.Literal('critical')],
      { default: 'high' },
    ),
    duration_sec: Type.Integer({
      minimum: 0,
      maximum: 86_400,
      default: 60,
      description: 'How long a condition must hold before it is sent',
    }),
  },
  { default: {} },
);
export type Thresholds = Static<typeof Thresholds>;

export const NotificationsConfig = Type.Object({
  enabled: Type.Boolean({ default: false, description: 'Global switch (test and send bypass it)' }),
  monitor_interval_sec: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 30,
    description: 'Seconds between threshold checks',
  }),
  history_retention_days: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  max_attempts: Type.Integer({ minimum: 1, maximum: 10, default: 3 }),
  retry_base_sec: Type.Number({
    minimum: 0.05,
    maximum: 3600,
    default: 30,
    description: 'Backoff: retry_base_sec × 2^(attempt−1), at least any Retry-After',
  }),
  destinations: Type.Array(Destination, { default: [] }),
  thresholds: Thresholds,
});
export type NotificationsConfig = Static<typeof NotificationsConfig>;

export { Severity };
