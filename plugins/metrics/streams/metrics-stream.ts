/**
 * /ws/metrics: a frame on connect, then the shared snapshot of each tick, serialized once by the
 * stream handle for every client that is due (per-client interval), latest-only on overflow.
 */
import type { PluginContext } from '../../../sdk/index.js';
import type { MetricsSnapshotView } from '../../../sdk/contracts/metrics-feed.js';
import { FrameSchedule } from '../frame-schedule.js';
import type { MetricsFeedService } from '../metrics-feed-service.js';
import { MetricsFrame, StreamQuery } from '../schemas.js';
import { toDashboardSnapshot } from '../wire/dashboard-snapshot.js';
import { historyPayload } from '../wire/history-request.js';

/** Declare the stream; returns the function that publishes one tick's snapshot. */
export function registerMetricsStream(
  ctx: PluginContext<unknown>,
  feed: MetricsFeedService,
  tickMs: number,
  /** Told how many clients are connected after each change (ticks speed up for them). */
  onClients: (count: number) => void = () => undefined,
): (snapshot: MetricsSnapshotView) => void {
  let clients = 0;
  const schedule = new FrameSchedule(tickMs);
  const handle = ctx.stream({
    path: '/ws/metrics',
    summary: 'Live metrics: a snapshot on connect, then one per interval',
    description:
      'The first frame is {"type":"bootstrap", snapshot, items, series, timestamps, truncated, stats, bucket_seconds} with bootstrap=true, {"type":"history", items, truncated, bucket_seconds} with history=true, else a snapshot frame; then {"type":"snapshot", data} (the GET /metrics snapshot) per interval. A slow client only ever gets the newest frame.',
    query: StreamQuery,
    message: MetricsFrame,
    overflow: 'latest-only',
    onOpen: async (client) => {
      schedule.add(client.id, client.query.interval, performance.now());
      onClients((clients += 1));
      const query = client.query;
      const snapshot = toDashboardSnapshot(await feed.latestOrFresh());
      if (!query.bootstrap && !query.history) {
        client.send({ type: 'snapshot', data: snapshot });
        return;
      }
      const history = await historyPayload(feed, {
        since: query.history_since,
        limit: query.history_limit,
        maxPoints: query.history_points,
        bucketSeconds: query.history_bucket,
      });
      if (query.bootstrap) client.send({ type: 'bootstrap', snapshot, ...history });
      else
        client.send({
          type: 'history',
          items: history.items,
          truncated: history.truncated,
          bucket_seconds: history.bucket_seconds,
        });
    },
    onClose: (client) => {
      schedule.remove(client.id);
      onClients((clients = Math.max(0, clients - 1)));
    },
  });
  return (snapshot) => {
    if (handle.clientCount === 0) return;
    const now = performance.now();
    handle.publish({ type: 'snapshot', data: toDashboardSnapshot(snapshot) }, (client) =>
      schedule.due(client.id, now),
    );
  };
}
