/**
 * The history payload DUMB's dashboard charts (`GET /metrics/history_series`, the bootstrap
 * frame of /ws/metrics): snapshots downsampled to at most `max_points` (the last sample of each
 * bucket, then an even stride that keeps the newest), plus aligned series with rates from
 * counters (null on the first point, a gap or a counter reset) and min/max per series.
 */
import { Nullable, Type, type Static } from '../../../sdk/index.js';
import type { MetricsSnapshotView } from '../../../sdk/contracts/metrics-feed.js';
import { DashboardSnapshot, toDashboardSnapshot } from './dashboard-snapshot.js';

const MIN_BUCKET_SEC = 5;
const Values = Type.Array(Nullable(Type.Number()));
const MinMax = Nullable(Type.Object({ min: Type.Number(), max: Type.Number() }));

const SERIES_NAMES = [
  'cpu',
  'mem',
  'disk',
  'inode',
  'disk_read_rate',
  'disk_write_rate',
  'net_sent_rate',
  'net_recv_rate',
] as const;
type SeriesName = (typeof SERIES_NAMES)[number];

export const HistorySeriesPayload = Type.Object({
  items: Type.Array(DashboardSnapshot, { description: 'The downsampled snapshots, oldest first' }),
  timestamps: Type.Array(Type.Number(), { description: 'Epoch seconds of each item' }),
  series: Type.Object(
    Object.fromEntries(SERIES_NAMES.map((name) => [name, Values])) as Record<
      SeriesName,
      typeof Values
    >,
    { description: 'One value per item: percents, and bytes/s for the *_rate series' },
  ),
  stats: Type.Object(
    Object.fromEntries(SERIES_NAMES.map((name) => [name, MinMax])) as Record<
      SeriesName,
      typeof MinMax
    >,
  ),
  truncated: Type.Boolean({ description: 'More stored snapshots matched than limit' }),
  bucket_seconds: Type.Number({ description: 'The bucket width used (never under 5 s)' }),
});
export type HistorySeriesPayload = Static<typeof HistorySeriesPayload>;

export interface HistorySeriesRequest {
  readonly since: number;
  readonly until: number;
  readonly maxPoints: number;
  readonly bucketSeconds?: number | undefined;
}

/** max(5, requested, range / max_points): the window always fits in max_points buckets. */
export function bucketWidth(request: HistorySeriesRequest): number {
  const range = Math.max(0, request.until - request.since);
  return Math.max(
    MIN_BUCKET_SEC,
    request.bucketSeconds ?? 0,
    Math.ceil(range / Math.max(1, request.maxPoints)),
  );
}

function downsample<T extends { epoch: number }>(
  items: T[],
  bucket: number,
  maxPoints: number,
): T[] {
  const lastPerBucket = new Map<number, T>();
  for (const item of items) lastPerBucket.set(Math.floor(item.epoch / bucket), item);
  const kept = [...lastPerBucket.values()];
  if (kept.length <= maxPoints) return kept;
  const stride = Math.ceil(kept.length / maxPoints);
  const strided = kept.filter((_, index) => index % stride === 0);
  const newest = kept[kept.length - 1];
  if (newest !== undefined && strided[strided.length - 1] !== newest) strided.push(newest);
  return strided;
}

/** The system figures one chart point reads from a snapshot (counters are raw, rates come later). */
export interface ChartPoint {
  readonly cpu: number | null;
  readonly mem: number | null;
  readonly disk: number | null;
  readonly inode: number | null;
  readonly diskRead: number | null;
  readonly diskWrite: number | null;
  readonly netSent: number | null;
  readonly netRecv: number | null;
}

/** The chart figures of one snapshot (its first filesystem is the one charted). */
export function chartPoint(view: MetricsSnapshotView): ChartPoint {
  const system = view.system;
  const first = system?.filesystems[0];
  return {
    cpu: system?.cpu_percent ?? null,
    mem: system?.memory.percent ?? null,
    disk: first?.percent ?? null,
    inode: first?.inode_percent ?? null,
    diskRead: system?.disk_io?.read_bytes ?? null,
    diskWrite: system?.disk_io?.write_bytes ?? null,
    netSent: system?.network?.tx_bytes ?? null,
    netRecv: system?.network?.rx_bytes ?? null,
  };
}

const rate = (now: number | null, before: number | null | undefined, dt: number) =>
  now === null || before == null || dt <= 0 || now < before ? null : (now - before) / dt;

function minMax(values: readonly (number | null)[]) {
  const present = values.filter((value): value is number => value !== null);
  return present.length === 0 ? null : { min: Math.min(...present), max: Math.max(...present) };
}

/** Everything of the payload but its items: what is left once the snapshots are chosen. */
export type HistorySeriesRest = Omit<HistorySeriesPayload, 'items'>;

/** The chart points to keep: the last of each bucket, at most `maxPoints`, oldest first. */
export function keptPoints<T extends { epoch: number }>(
  points: T[],
  request: HistorySeriesRequest,
): T[] {
  return downsample(points, bucketWidth(request), Math.max(1, request.maxPoints));
}

/** Timestamps, aligned series with rates, min/max: the payload's rest for the kept points. */
export function seriesRest(
  kept: readonly { epoch: number; chart: ChartPoint }[],
  truncated: boolean,
  request: HistorySeriesRequest,
): HistorySeriesRest {
  const series: Record<SeriesName, (number | null)[]> = Object.fromEntries(
    SERIES_NAMES.map((name) => [name, []]),
  ) as unknown as Record<SeriesName, (number | null)[]>;
  kept.forEach(({ chart, epoch }, index) => {
    const previous = index > 0 ? kept[index - 1] : undefined;
    const before = previous?.chart;
    const dt = previous === undefined ? 0 : epoch - previous.epoch;
    series.cpu.push(chart.cpu);
    series.mem.push(chart.mem);
    series.disk.push(chart.disk);
    series.inode.push(chart.inode);
    series.disk_read_rate.push(rate(chart.diskRead, before?.diskRead, dt));
    series.disk_write_rate.push(rate(chart.diskWrite, before?.diskWrite, dt));
    series.net_sent_rate.push(rate(chart.netSent, before?.netSent, dt));
    series.net_recv_rate.push(rate(chart.netRecv, before?.netRecv, dt));
  });
  return {
    timestamps: kept.map(({ epoch }) => epoch),
    series,
    stats: Object.fromEntries(SERIES_NAMES.map((name) => [name, minMax(series[name])])) as Record<
      SeriesName,
      ReturnType<typeof minMax>
    >,
    truncated,
    bucket_seconds: bucketWidth(request),
  };
}

export function historySeries(
  views: readonly MetricsSnapshotView[],
  truncated: boolean,
  request: HistorySeriesRequest,
): HistorySeriesPayload {
  const stamped = views.map((view) => ({
    view,
    epoch: Date.parse(view.timestamp) / 1000,
    chart: chartPoint(view),
  }));
  const kept = keptPoints(stamped, request);
  return {
    items: kept.map(({ view }) => toDashboardSnapshot(view)),
    ...seriesRest(kept, truncated, request),
  };
}
