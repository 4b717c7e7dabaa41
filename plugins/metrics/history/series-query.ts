/** Answer a series query from stored rows: select the value, pick the bucket width, bucket. */
import { InputError } from '../../../sdk/index.js';
import type {
  MetricsSeries,
  MetricsSeriesQuery,
  SeriesMetric,
} from '../../../sdk/contracts/metrics-feed.js';
import { bucketGauge, bucketRate, bucketWidth } from './buckets.js';
import type { HistoryWindow, MetricsHistoryStore } from './history-store.js';
import { seriesValue, type SeriesSelector } from './series-row.js';
import { METRICS_PROCESS_REQUIRED, METRICS_WINDOW_INVALID } from '../errors.js';

/** Default window of history and series reads. */
export const DEFAULT_WINDOW_SEC = 6 * 3600;

const UNITS: Record<SeriesMetric, MetricsSeries['unit']> = {
  cpu_percent: 'percent',
  load_1: 'load',
  memory_percent: 'percent',
  memory_used_bytes: 'bytes',
  swap_percent: 'percent',
  disk_percent: 'percent',
  inode_percent: 'percent',
  disk_read_rate: 'bytes_per_sec',
  disk_write_rate: 'bytes_per_sec',
  net_rx_rate: 'bytes_per_sec',
  net_tx_rate: 'bytes_per_sec',
  process_cpu_percent: 'percent',
  process_rss_bytes: 'bytes',
};

/** The query's window in epoch seconds; `since` after `until` is an input error. */
export function queryWindow(
  since: number | undefined,
  until: number | undefined,
  nowSec = Date.now() / 1000,
): { since: number; until: number } {
  const end = until ?? nowSec;
  const start = since ?? end - DEFAULT_WINDOW_SEC;
  if (start > end)
    throw new InputError(METRICS_WINDOW_INVALID, 'since must not be after until', {
      field: 'since',
    });
  return { since: start, until: end };
}

/** Epoch seconds to the store's milliseconds (rounded: 1.358 s * 1000 is not exactly 1358). */
export function windowMs(window: { since: number; until: number }): HistoryWindow {
  return { sinceMs: Math.round(window.since * 1000), untilMs: Math.round(window.until * 1000) };
}

/**
 * The series a query names: a process metric needs `process_name` (422 without it), a disk
 * metric reads `path` (default: the data folder's disk), the rest ignore both.
 */
function seriesSelector(query: MetricsSeriesQuery, defaultPath: string | null): SeriesSelector {
  const isProcess = query.metric.startsWith('process_');
  if (isProcess && (query.process_name === undefined || query.process_name.length === 0))
    throw new InputError(METRICS_PROCESS_REQUIRED, `${query.metric} needs process_name`, {
      field: 'process_name',
    });
  const usesPath = query.metric === 'disk_percent' || query.metric === 'inode_percent';
  return {
    metric: query.metric,
    processName: isProcess ? (query.process_name ?? null) : null,
    path: usesPath ? (query.path ?? defaultPath) : null,
    networkInterface: query.interface ?? '*',
  };
}

/** Run a series query against the store (null store: history disabled, no points). */
export function runSeriesQuery(
  store: MetricsHistoryStore | null,
  query: MetricsSeriesQuery,
  defaultPath: string | null,
): MetricsSeries {
  const { since, until } = queryWindow(query.since, query.until);
  const selector = seriesSelector(query, defaultPath);
  const usesInterface = query.metric.startsWith('net_');
  const bucket = bucketWidth(until - since, query.bucket_sec);
  const values = (store?.seriesRows(windowMs({ since, until })) ?? []).map(({ at, row }) => ({
    at,
    value: seriesValue(row, selector),
  }));
  const kind = query.metric.endsWith('_rate') ? 'rate' : 'gauge';
  return {
    metric: query.metric,
    kind,
    unit: UNITS[query.metric],
    process_name: selector.processName,
    path: selector.path,
    interface: usesInterface ? (query.interface ?? null) : null,
    since,
    until,
    bucket_sec: bucket,
    points: kind === 'rate' ? bucketRate(values, bucket) : bucketGauge(values, bucket),
  };
}
