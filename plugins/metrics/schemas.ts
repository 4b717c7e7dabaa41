/** Request and message schemas of the metrics routes and stream. */
import { Nullable, Type } from '../../sdk/index.js';
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

/** The SQLite history file in the storage status. */
export const SqliteStatus = Type.Object({
  path: Type.String(),
  samples: Type.Integer(),
  compressed_bytes: Type.Integer({ description: 'Stored (deflated) snapshot bytes' }),
  raw_bytes: Nullable(Type.Integer({ description: 'Not tracked: null' })),
  compression_ratio: Nullable(Type.Number({ description: 'Not tracked: null' })),
  file_bytes: Type.Integer({ description: 'The database file with its journal' }),
  oldest_timestamp: Nullable(Type.Number({ description: 'Epoch seconds' })),
  newest_timestamp: Nullable(Type.Number({ description: 'Epoch seconds' })),
});

/** GET /metrics/history/storage, in the status shape DUMB's Metrics settings read. */
export const StorageStatus = Type.Object({
  history_enabled: Type.Boolean(),
  configured_provider: Type.Literal('sqlite'),
  active_provider: Type.Literal('sqlite'),
  fallback_active: Type.Boolean({
    description: 'Always false: there is nothing to fall back from',
  }),
  last_error: Nullable(Type.String()),
  last_postgresql_success: Type.Null(),
  sqlite: SqliteStatus,
  postgresql: Type.Null({ description: 'stackd has no PostgreSQL history' }),
  legacy_jsonl: Type.Object({
    files: Type.Integer(),
    bytes: Type.Integer(),
    migration: Nullable(Type.String()),
    preserved: Type.Boolean(),
  }),
});

/** A mounted filesystem that can be monitored. */
export const MountCandidate = Type.Object({
  path: Type.String({
    description: 'Mount point, as this process sees it (inside a container: the container path)',
  }),
  fs_type: Type.String(),
  source: Type.String({ description: 'Device or source of the mount' }),
  total_bytes: Nullable(Type.Number()),
  used_bytes: Nullable(Type.Number()),
  free_bytes: Nullable(Type.Number()),
  percent: Nullable(Type.Number({ description: 'Space used, as df computes it' })),
  inode_percent: Nullable(Type.Number()),
});

/** A network interface that can be monitored. */
export const InterfaceCandidate = Type.Object({
  name: Type.String(),
  is_up: Type.Boolean(),
  loopback: Type.Boolean({ description: 'Not counted by "all"' }),
  speed_mbps: Nullable(Type.Number()),
  mtu: Nullable(Type.Number()),
  rx_bytes: Type.Number(),
  tx_bytes: Type.Number(),
});

/** GET /metrics/history: a page of snapshots. */
export const HistoryPage = Type.Object({
  items: Type.Array(DashboardSnapshot),
  truncated: Type.Boolean({ description: 'More snapshots matched than limit' }),
});

/** The latest snapshot, saying how old it is: it is the last tick's, not read now. */
export const LatestSnapshot = Type.Object({
  ...DashboardSnapshot.properties,
  age_ms: Type.Integer({
    minimum: 0,
    description:
      'How long ago the snapshot was taken (`taken_at`), in milliseconds: samples are collected ' +
      'on a timer (faster while someone streams /ws/metrics), not per request.',
  }),
});

/** Query of GET /metrics/history/storage (`probe_postgresql` is accepted and ignored). */
export const StorageStatusQuery = Type.Object({ probe_postgresql: Type.Optional(Type.Boolean()) });

/** Query of POST /metrics/history/migrate (`force` is accepted). */
export const HistoryMigrateQuery = Type.Object({ force: Type.Optional(Type.Boolean()) });

/** POST /metrics/history/migrate: an import that found nothing. */
export const HistoryMigrateResult = Type.Object({
  completed: Type.Boolean(),
  files: Type.Integer(),
  samples: Type.Integer(),
  skipped: Type.Integer(),
});

/** GET /metrics/filesystems: the candidates and the paths monitored now. */
export const FilesystemCandidates = Type.Object({
  candidates: Type.Array(MountCandidate),
  selected: Type.Array(Type.String()),
});

/** GET /metrics/network-interfaces: the candidates and the selection now. */
export const InterfaceCandidates = Type.Object({
  candidates: Type.Array(InterfaceCandidate),
  selected: Type.Array(Type.String()),
});
