/** Reads history for the dashboard payload (route and bootstrap frame share it). */
import type { MetricsFeedService } from '../metrics-feed-service.js';
import { historySeries, type HistorySeriesPayload } from './history-series.js';

const SIX_HOURS_SEC = 6 * 3600;

export interface HistoryPayloadQuery {
  readonly since?: number | undefined;
  readonly until?: number | undefined;
  readonly limit?: number | undefined;
  readonly maxPoints?: number | undefined;
  readonly bucketSeconds?: number | undefined;
}

export async function historyPayload(
  feed: MetricsFeedService,
  query: HistoryPayloadQuery,
): Promise<HistorySeriesPayload> {
  const until = query.until ?? Date.now() / 1000;
  const since = query.since ?? until - SIX_HOURS_SEC;
  const page = await feed.history({ since, until, limit: query.limit ?? 5000 });
  return historySeries(page.items, page.truncated, {
    since,
    until,
    maxPoints: query.maxPoints ?? 600,
    bucketSeconds: query.bucketSeconds,
  });
}
