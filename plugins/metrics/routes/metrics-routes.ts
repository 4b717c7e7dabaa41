/**
 * GET /metrics, /metrics/history, /metrics/history_series and /metrics/series: thin calls into
 * the feed service; snapshots leave in the wire shape of `wire/dashboard-snapshot.ts`.
 */
import {
  EXPOSITION_SCOPE,
  alsoAnswersExposition,
  defineRoute,
  negotiateExposition,
  rawReply,
  type Exposition,
} from '../../../sdk/index.js';
import { MetricsSeries } from '../../../sdk/contracts/metrics-feed.js';
import type { MetricsFeedService } from '../metrics-feed-service.js';
import {
  HistoryPage,
  HistoryQuery,
  HistorySeriesQuery,
  LatestSnapshot,
  SeriesQuery,
} from '../schemas.js';
import { LatestSnapshotText } from '../wire/latest-text.js';
import { historyPayloadRequest } from '../wire/history-request.js';
import { HistorySeriesPayload } from '../wire/history-series.js';
import { historyReply, historySeriesReply, type HistoryWireCache } from '../wire/history-text.js';
import { DEFAULT_HISTORY_LIMIT } from '../metrics-feed-service.js';
import { queryWindow, windowMs } from '../history/series-query.js';

/**
 * GET /metrics: the dashboard's JSON, or the Prometheus exposition when the client asks for a
 * text format (Prometheus's own Accept header does) or scrapes with a scrape token, so a
 * scrape config can name the conventional path.
 */
export function latestMetricsRoute(feed: MetricsFeedService, exposition: Exposition) {
  const latestText = new LatestSnapshotText();
  return defineRoute({
    method: 'GET',
    path: '/metrics',
    summary: 'The latest metrics snapshot (system and supervised processes), with its age',
    description:
      'JSON by default. With `Accept: text/plain` or `application/openmetrics-text` preferred over JSON, or with a scrape token, the Prometheus exposition of `GET /metrics/prometheus` instead.',
    tags: ['metrics'],
    schema: { response: alsoAnswersExposition(LatestSnapshot) },
    handler: async (request) => {
      const accept = request.headers.accept;
      if (request.principal?.scope === EXPOSITION_SCOPE || negotiateExposition(accept) !== null) {
        const text = await exposition.render(accept);
        return rawReply(200, { 'content-type': text.contentType }, text.parts);
      }
      return latestText.reply(await feed.latestOrFresh());
    },
  });
}

/** GET /metrics/history */
export function metricsHistoryRoute(feed: MetricsFeedService, cache: HistoryWireCache) {
  return defineRoute({
    method: 'GET',
    path: '/metrics/history',
    summary: 'Stored snapshots of a time window, oldest first',
    tags: ['metrics'],
    schema: { query: HistoryQuery, response: HistoryPage },
    handler: (request) => {
      const window = windowMs(queryWindow(request.query.since, request.query.until));
      const limit = request.query.limit ?? DEFAULT_HISTORY_LIMIT;
      return historyReply(cache, feed.historyStore, window, limit);
    },
  });
}

/** GET /metrics/history_series */
export function metricsHistorySeriesRoute(feed: MetricsFeedService, cache: HistoryWireCache) {
  return defineRoute({
    method: 'GET',
    path: '/metrics/history_series',
    summary: 'History downsampled for charts: snapshots, aligned series and min/max',
    description:
      "The payload DUMB's Metrics page charts. Buckets are max(5 s, bucket_seconds, window / max_points) wide; the last snapshot of each bucket is kept.",
    tags: ['metrics'],
    schema: { query: HistorySeriesQuery, response: HistorySeriesPayload },
    handler: (request) => {
      const series = historyPayloadRequest({
        since: request.query.since,
        until: request.query.until,
        limit: request.query.limit,
        maxPoints: request.query.max_points,
        bucketSeconds: request.query.bucket_seconds,
      });
      const window = windowMs(queryWindow(series.since, series.until));
      return historySeriesReply(cache, feed.historyStore, window, series.limit, series);
    },
  });
}

/** GET /metrics/series */
export function metricsSeriesRoute(feed: MetricsFeedService) {
  return defineRoute({
    method: 'GET',
    path: '/metrics/series',
    summary: 'One metric over time, downsampled into buckets (rates from counters)',
    tags: ['metrics'],
    schema: { query: SeriesQuery, response: MetricsSeries },
    handler: (request) => feed.series(request.query),
  });
}
