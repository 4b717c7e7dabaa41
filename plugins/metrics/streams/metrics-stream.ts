/**
 * /ws/metrics: a frame on connect, then the shared snapshot of each tick, serialized once by the
 * stream handle for every client that is due (per-client interval), latest-only on overflow.
 */
import type { PluginContext } from '../../../sdk/index.js';
import type { MetricsSnapshotView } from '../../../sdk/contracts/metrics-feed.js';
import { FrameSchedule } from '../frame-schedule.js';
import type { MetricsFeedService } from '../metrics-feed-service.js';
import { MetricsFrame, StreamQuery } from '../schemas.js';

/** Declare the stream; returns the function that publishes one tick's snapshot. */
export function registerMetricsStream(
  ctx: PluginContext<unknown>,
  feed: MetricsFeedService,
  tickMs: number,
): (snapshot: MetricsSnapshotView) => void {
  const schedule = new FrameSchedule(tickMs);
  const handle = ctx.stream({
    path: '/ws/metrics',
    summary: 'Live metrics: a snapshot on connect, then one per interval',
    description:
      'Frames are {"type":"metrics", timestamp, system, processes} (the GET /metrics snapshot). A slow client only ever gets the newest frame.',
    query: StreamQuery,
    message: MetricsFrame,
    overflow: 'latest-only',
    onOpen: async (client) => {
      schedule.add(client.id, client.query.interval, performance.now());
      const snapshot = await feed.latestOrFresh();
      client.send({ type: 'metrics', ...snapshot });
    },
    onClose: (client) => schedule.remove(client.id),
  });
  return (snapshot) => {
    if (handle.clientCount === 0) return;
    const now = performance.now();
    handle.publish({ type: 'metrics', ...snapshot }, (client) => schedule.due(client.id, now));
  };
}
