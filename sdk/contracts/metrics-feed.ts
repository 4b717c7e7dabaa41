/**
 * `metrics.feed`: the metrics plugin's live snapshot, history and downsampled series, for the
 * plugins that watch the stack (notification thresholds, AI diagnostics). The schemas below are
 * the one source of the wire shape (`GET /metrics`, `/ws/metrics`, history items) and its types.
 */
import { Nullable, StringEnum, Type, type Static } from '../schema.js';
import { createServiceRef } from '../services.js';

const Bytes = (description: string) => Type.Number({ minimum: 0, description });
const Percent = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });
const BytesPerSecond = (description: string) =>
  Nullable(Type.Number({ minimum: 0, description: `${description}; null on the first sample` }));

/** Usage of one configured filesystem path (numbers are null when the path cannot be read). */
export const FilesystemMetrics = Type.Object({
  path: Type.String({ description: 'The configured path' }),
  available: Type.Boolean({ description: 'False when the path does not exist or cannot be read' }),
  total_bytes: Nullable(Bytes('Size of the filesystem holding the path')),
  used_bytes: Nullable(Bytes('Used bytes')),
  free_bytes: Nullable(Bytes('Bytes available to unprivileged users')),
  percent: Nullable(Percent('used / (used + free), as df reports it')),
  inodes_total: Nullable(Type.Number({ minimum: 0 })),
  inodes_used: Nullable(Type.Number({ minimum: 0 })),
  inodes_free: Nullable(Type.Number({ minimum: 0 })),
  inode_percent: Nullable(Percent('Used inodes; null on filesystems without inode counts')),
  mount_point: Type.Optional(Type.String({ description: 'The mount holding the path' })),
  fs_type: Type.Optional(Type.String({ description: 'Its filesystem type' })),
});
export type FilesystemMetrics = Static<typeof FilesystemMetrics>;

/** Block device IO: monotonic counters since boot plus rates since the previous sample. */
export const DiskIoMetrics = Type.Object({
  read_bytes: Bytes('Bytes read (counter)'),
  write_bytes: Bytes('Bytes written (counter)'),
  read_count: Type.Number({ minimum: 0, description: 'Completed reads (counter)' }),
  write_count: Type.Number({ minimum: 0, description: 'Completed writes (counter)' }),
  read_bytes_per_sec: BytesPerSecond('Read rate'),
  write_bytes_per_sec: BytesPerSecond('Write rate'),
});
export type DiskIoMetrics = Static<typeof DiskIoMetrics>;

const NetworkCounters = {
  rx_bytes: Bytes('Bytes received (counter)'),
  tx_bytes: Bytes('Bytes sent (counter)'),
  rx_packets: Type.Number({ minimum: 0 }),
  tx_packets: Type.Number({ minimum: 0 }),
  rx_errors: Type.Number({ minimum: 0 }),
  tx_errors: Type.Number({ minimum: 0 }),
  rx_dropped: Type.Number({ minimum: 0 }),
  tx_dropped: Type.Number({ minimum: 0 }),
  rx_bytes_per_sec: BytesPerSecond('Receive rate'),
  tx_bytes_per_sec: BytesPerSecond('Send rate'),
};

/** One network interface; a configured interface that does not exist has `available: false`. */
export const NetworkInterfaceMetrics = Type.Object({
  name: Type.String(),
  available: Type.Boolean(),
  ...NetworkCounters,
  is_up: Type.Optional(
    Type.Boolean({ description: 'Link up (operstate, or IFF_UP when unknown)' }),
  ),
  speed_mbps: Type.Optional(
    Nullable(Type.Number({ description: 'Link speed; null when not reported' })),
  ),
  mtu: Type.Optional(Nullable(Type.Number())),
});
export type NetworkInterfaceMetrics = Static<typeof NetworkInterfaceMetrics>;

/** Network IO: the sum over available selected interfaces, and each interface. */
export const NetworkMetrics = Type.Object({
  ...NetworkCounters,
  interfaces: Type.Array(NetworkInterfaceMetrics),
});
export type NetworkMetrics = Static<typeof NetworkMetrics>;

/** Host-wide (or container-wide, when `scope` is `cgroup`) figures. */
export const SystemMetrics = Type.Object({
  scope: StringEnum(['host', 'cgroup'] as const, {
    description: 'cgroup: CPU and memory are measured against the container limits',
  }),
  cpu_percent: Nullable(
    Percent('CPU busy over the last interval, 100 = every available CPU; null on the first sample'),
  ),
  cpu_count: Type.Number({ minimum: 0, description: 'CPUs available (the cgroup quota, if any)' }),
  load_avg: Type.Array(Type.Number({ minimum: 0 }), {
    minItems: 3,
    maxItems: 3,
    description: '1, 5 and 15 minute load averages',
  }),
  memory: Type.Object({
    total_bytes: Bytes('RAM (or the cgroup limit)'),
    used_bytes: Bytes('In use, without reclaimable page cache'),
    available_bytes: Bytes('Available for new work'),
    percent: Percent('used / total'),
  }),
  swap: Type.Object({
    total_bytes: Bytes('Swap size'),
    used_bytes: Bytes('Swap in use'),
    percent: Percent('used / total; 0 without swap'),
  }),
  filesystems: Type.Array(FilesystemMetrics, {
    description: 'One entry per configured filesystem path, in configuration order',
  }),
  disk_io: Nullable(DiskIoMetrics),
  network: Nullable(NetworkMetrics),
  uptime_sec: Type.Number({ minimum: 0, description: 'Host uptime' }),
});
export type SystemMetrics = Static<typeof SystemMetrics>;

/** One supervised process, summed over its whole process tree. */
export const ProcessMetrics = Type.Object({
  process_name: Type.String(),
  status: Type.String({ description: 'Supervisor status (running, stopped, crashed, …)' }),
  pid: Nullable(Type.Integer()),
  pid_count: Type.Integer({
    minimum: 0,
    description: 'Processes in the tree (main + descendants)',
  }),
  cpu_percent: Type.Number({
    minimum: 0,
    description: 'CPU of the tree since the previous sample; 100 = one full core',
  }),
  rss_bytes: Bytes('Resident memory of the tree'),
  uptime_sec: Nullable(Type.Number({ minimum: 0, description: 'Since the last start' })),
  restarts: Type.Integer({ minimum: 0 }),
});
export type ProcessMetrics = Static<typeof ProcessMetrics>;

/** The shared snapshot: `GET /metrics`, `/ws/metrics` frames and history items. */
export const MetricsSnapshotView = Type.Object({
  timestamp: Type.String({ format: 'date-time', description: 'UTC time of the sample' }),
  system: Nullable(SystemMetrics),
  processes: Type.Record(Type.String(), ProcessMetrics, {
    description: 'Keyed by process_name; empty when no supervisor is loaded',
  }),
});
export type MetricsSnapshotView = Static<typeof MetricsSnapshotView>;

/** Metrics the series endpoint can compute. `*_rate` metrics are bytes/second from counters. */
export const SERIES_METRICS = [
  'cpu_percent',
  'load_1',
  'memory_percent',
  'memory_used_bytes',
  'swap_percent',
  'disk_percent',
  'inode_percent',
  'disk_read_rate',
  'disk_write_rate',
  'net_rx_rate',
  'net_tx_rate',
  'process_cpu_percent',
  'process_rss_bytes',
] as const;
export type SeriesMetric = (typeof SERIES_METRICS)[number];
export const SeriesMetricSchema = StringEnum(SERIES_METRICS, {
  description:
    'gauges are averaged per bucket; *_rate are bytes/s from counters (resets handled); process_* need process_name; disk/inode_percent take path',
});

/** A history read: the latest `limit` snapshots at or after `since`, oldest first. */
export interface MetricsHistoryQuery {
  /** Epoch seconds; default: six hours ago. */
  readonly since?: number;
  /** Epoch seconds; default: now. */
  readonly until?: number;
  /** Default 500. */
  readonly limit?: number;
}

export const MetricsHistoryPage = Type.Object({
  items: Type.Array(MetricsSnapshotView),
  truncated: Type.Boolean({ description: 'More snapshots matched than limit' }),
});
export type MetricsHistoryPage = Static<typeof MetricsHistoryPage>;

/** A downsampled series read. */
export interface MetricsSeriesQuery {
  readonly metric: SeriesMetric;
  /** Required for `process_*` metrics. */
  readonly process_name?: string;
  /** Filesystem path for disk/inode percent (default: the first configured path). */
  readonly path?: string;
  /** Interface for network rates (default: the aggregate). */
  readonly interface?: string;
  /** Epoch seconds; default: six hours ago. */
  readonly since?: number;
  /** Epoch seconds; default: now. */
  readonly until?: number;
  /** Bucket width; default (and minimum): enough to keep at most 1000 buckets. */
  readonly bucket_sec?: number;
}

export const SeriesPoint = Type.Object({
  timestamp: Type.Number({ description: 'Bucket start, epoch seconds' }),
  value: Nullable(Type.Number({ description: 'Average (gauges) or rate over the bucket' })),
  min: Nullable(Type.Number()),
  max: Nullable(Type.Number()),
  samples: Type.Integer({ minimum: 0 }),
});
export type SeriesPoint = Static<typeof SeriesPoint>;

export const MetricsSeries = Type.Object({
  metric: SeriesMetricSchema,
  kind: StringEnum(['gauge', 'rate'] as const),
  unit: StringEnum(['percent', 'bytes', 'bytes_per_sec', 'load'] as const),
  process_name: Nullable(Type.String()),
  path: Nullable(Type.String()),
  interface: Nullable(Type.String()),
  since: Type.Number({ description: 'Epoch seconds' }),
  until: Type.Number({ description: 'Epoch seconds' }),
  bucket_sec: Type.Number({ minimum: 0 }),
  points: Type.Array(SeriesPoint, { description: 'Buckets that have samples, oldest first' }),
});
export type MetricsSeries = Static<typeof MetricsSeries>;

/** The metrics plugin's service. */
export interface MetricsFeed {
  /** The latest snapshot, or null before the first collection. */
  latest(): MetricsSnapshotView | null;
  /** Called once per collection tick; returns an unsubscribe function. */
  subscribe(listener: (snapshot: MetricsSnapshotView) => void): () => void;
  /** The filesystem paths `system.filesystems` reports on (thresholds evaluate each). */
  filesystemPaths(): readonly string[];
  /** Stored snapshots (empty when history is disabled). */
  history(query?: MetricsHistoryQuery): Promise<MetricsHistoryPage>;
  /** A bucketed series from history (a current-versus-baseline comparison reads two windows). */
  series(query: MetricsSeriesQuery): Promise<MetricsSeries>;
}

/** The service ref. */
export const metricsFeedRef = createServiceRef<MetricsFeed>({
  id: 'metrics.feed',
  owner: 'metrics',
});
