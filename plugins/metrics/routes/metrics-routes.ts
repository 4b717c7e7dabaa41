/** GET /metrics, /metrics/history and /metrics/series: thin calls into the feed service. */
import { defineRoute } from '../../../sdk/index.js';
import {
  MetricsHistoryPage,
  MetricsSeries,
  MetricsSnapshotView,
} from '../../../sdk/contracts/metrics-feed.js';
import type { MetricsFeedService } from '../metrics-feed-service.js';
import { HistoryQuery, SeriesQuery } from '../schemas.js';

/** GET /metrics */
export const latestMetricsRoute = (feed: MetricsFeedService) =>
  defineRoute({
    method: 'GET',
    path: '/metrics',
    summary: 'The latest metrics snapshot (system and supervised processes)',
    tags: ['metrics'],
    schema: { response: MetricsSnapshotView },
    handler: () => feed.latestOrFresh(),
  });

/** GET /metrics/history */
export const metricsHistoryRoute = (feed: MetricsFeedService) =>
  defineRoute({
    method: 'GET',
    path: '/metrics/history',
    summary: 'Stored snapshots of a time window, oldest first',
    tags: ['metrics'],
    schema: { query: HistoryQuery, response: MetricsHistoryPage },
    handler: (request) => feed.history(request.query),
  });

/** GET /metrics/series */
export const metricsSeriesRoute = (feed: MetricsFeedService) =>
  defineRoute({
    method: 'GET',
    path: '/metrics/series',
    summary: 'One metric over time, downsampled into buckets (rates from counters)',
    tags: ['metrics'],
    schema: { query: SeriesQuery, response: MetricsSeries },
    handler: (request) => feed.series(request.query),
  });
