/** Request and message schemas of the metrics routes and stream. */
import { Type } from '../../sdk/index.js';
import { SeriesMetricSchema } from '../../sdk/contracts/metrics-feed.js';
import { DashboardSnapshot } from './wire/dashboard-snapshot.js';
import { HistorySeriesPayload } from './wire/history-series.js';
import { DEFAULT_INTERVAL_SEC, MAX_INTERVAL_SEC, MIN_INTERVAL_SEC } from './frame-schedule.js';

const EpochSeconds = (description: string) =>
  Type.Optional(Type.Number({ minimum: 0, description: `Epoch seconds; ${description}` }));

export const HistoryQuery = Type.Object({
  since: EpochSeconds('default: six hours before until'),
  until: EpochSeconds('default: now'),
  limit: Type.Integer({
    minimum: 1,
    maximum: 5000,
    default: 500,
    description: 'The latest this many snapshots of the window are returned, oldest first',
  }),
});

export const HistorySeriesQuery = Type.Object({
  since: EpochSeconds('default: six hours before until'),
  until: EpochSeconds('default: now'),
  limit: Type.Integer({
    minimum: 1,
    maximum: 50_000,
    default: 5000,
    description: 'Stored snapshots read (the latest of the window)',
  }),
  max_points: Type.Integer({ minimum: 1, maximum: 5000, default: 600 }),
  bucket_seconds: Type.Optional(
    Type.Number({ minimum: 1, maximum: 7 * 86_400, description: 'Raised to at least 5 s' }),
  ),
});

export const SeriesQuery = Type.Object({
  metric: SeriesMetricSchema,
  process_name: Type.Optional(Type.String({ minLength: 1, description: 'For process_* metrics' })),
  path: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Filesystem path for disk/inode_percent (default: the first configured)',
    }),
  ),
  interface: Type.Optional(
    Type.String({ minLength: 1, description: 'Interface for net_* rates (default: the sum)' }),
  ),
  since: EpochSeconds('default: six hours before until'),
  until: EpochSeconds('default: now'),
  bucket_sec: Type.Optional(
    Type.Number({
      minimum: 1,
      maximum: 7 * 86_400,
      description: 'Bucket width; raised so the window holds at most 1000 buckets',
    }),
  ),
});

const Flag = (description: string) => Type.Boolean({ default: false, description });

export const StreamQuery = Type.Object({
  interval: Type.Number({
    default: DEFAULT_INTERVAL_SEC,
    description: `Seconds between frames, clamped to ${MIN_INTERVAL_SEC}..${MAX_INTERVAL_SEC}; frames never come faster than collection (stackd.metrics.interval_ms)`,
  }),
  bootstrap: Flag(
    'First frame: {type:"bootstrap", snapshot, items, series, timestamps, truncated, stats, bucket_seconds}',
  ),
  history: Flag(
    'First frame (without bootstrap): {type:"history", items, truncated, bucket_seconds}',
  ),
  history_points: Type.Integer({ minimum: 1, maximum: 5000, default: 600 }),
  history_bucket: Type.Optional(Type.Number({ minimum: 1, maximum: 86_400 })),
  history_limit: Type.Integer({ minimum: 1, maximum: 50_000, default: 5000 }),
  history_since: Type.Optional(
    Type.Number({ minimum: 0, description: 'Epoch seconds; default six hours ago' }),
  ),
});

/** The frames of /ws/metrics (DUMB's dashboard parses these three). */
export const MetricsFrame = Type.Union([
  Type.Object({ type: Type.Literal('snapshot'), data: DashboardSnapshot }),
  Type.Object({
    type: Type.Literal('bootstrap'),
    snapshot: DashboardSnapshot,
    ...HistorySeriesPayload.properties,
  }),
  Type.Object({
    type: Type.Literal('history'),
    items: HistorySeriesPayload.properties.items,
    truncated: Type.Boolean(),
    bucket_seconds: Type.Number(),
  }),
]);
