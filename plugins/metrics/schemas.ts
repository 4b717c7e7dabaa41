/** Request and message schemas of the metrics routes and stream. */
import { Type } from '../../sdk/index.js';
import { MetricsSnapshotView, SeriesMetricSchema } from '../../sdk/contracts/metrics-feed.js';
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

export const StreamQuery = Type.Object({
  interval: Type.Number({
    default: DEFAULT_INTERVAL_SEC,
    description: `Seconds between frames, clamped to ${MIN_INTERVAL_SEC}..${MAX_INTERVAL_SEC}; frames never come faster than collection (stackd.metrics.interval_ms)`,
  }),
});

/** A /ws/metrics frame: the shared snapshot with a type tag. */
export const MetricsFrame = Type.Object({
  type: Type.Literal('metrics'),
  ...MetricsSnapshotView.properties,
});
