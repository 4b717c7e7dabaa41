/** Reads history for the dashboard payload (route and bootstrap frame share it). */
import type { MetricsFeedService } from '../metrics-feed-service.js';
import {
  historySeries,
  type HistorySeriesPayload,
  type HistorySeriesRequest,
} from './history-series.js';

const SIX_HOURS_SEC = 6 * 3600;

export interface HistoryPayloadQuery {
  readonly since?: number | undefined;
  readonly until?: number | undefined;
  readonly limit?: number | undefined;
  readonly maxPoints?: number | undefined;
  readonly bucketSeconds?: number | undefined;
}

/** The query with its defaults: the last six hours, 5000 snapshots read, 600 points. */
export function historyPayloadRequest(query: HistoryPayloadQuery): HistorySeriesRequest & {
  readonly limit: number;
} {
  const until = query.until ?? Date.now() / 1000;
  const since = query.since ?? until - SIX_HOURS_SEC;
  return {
    since,
    until,
    limit: query.limit ?? 5000,
    maxPoints: query.maxPoints ?? 600,
    bucketSeconds: query.bucketSeconds,
  };
}

export async function historyPayload(
  feed: MetricsFeedService,
  query: HistoryPayloadQuery,
): Promise<HistorySeriesPayload> {
  const request = historyPayloadRequest(query);
  const { since, until, limit } = request;
  const page = await feed.history({ since, until, limit });
  return historySeries(page.items, page.truncated, request);
}
