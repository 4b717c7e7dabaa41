/**
 * The metrics plugin: the `system` collector, GET /metrics, /ws/metrics, SQLite history with
 * series reads, and the `metrics.feed` service. Per-process figures come from the supervisor's
 * `processes` collector through core's shared feed, so this plugin also works without it.
 */
import { definePlugin } from '../../sdk/index.js';
import { metricsFeedRef } from '../../sdk/contracts/metrics-feed.js';
import { filesystemPaths, MetricsConfig, networkInterfaces } from './config.js';
import { HistoryRecorder } from './history/history-recorder.js';
import { MetricsHistoryStore } from './history/history-store.js';
import { MetricsFeedService } from './metrics-feed-service.js';
import {
  latestMetricsRoute,
  metricsHistoryRoute,
  metricsHistorySeriesRoute,
  metricsSeriesRoute,
} from './routes/metrics-routes.js';
import { registerMetricsStream } from './streams/metrics-stream.js';
import { SystemCollector } from './system/system-collector.js';
import { TickConsumer } from './tick-consumer.js';

const DAY_MS = 86_400_000;

export default definePlugin({
  name: 'metrics',
  version: '1.0.0',
  apiVersion: 1,
  capabilities: [
    'metrics_history_storage',
    'metrics_filesystem_selection',
    'metrics_network_interface_selection',
  ],
  config: MetricsConfig,
  register(ctx) {
    const config = ctx.config;
    const paths = filesystemPaths(config.filesystem_paths, ctx.host.dataDir);
    const collector = new SystemCollector({
      filesystemPaths: paths,
      networkInterfaces: networkInterfaces(config.network_interfaces),
      scope: config.scope,
    });
    const feed = new MetricsFeedService(
      paths,
      () => collector.collect(),
      (error) => ctx.logger.error('metrics feed subscriber failed', { error }),
    );
    ctx.metrics({
      name: 'system',
      intervalMs: config.interval_ms,
      collect: () => collector.collect(),
    });
    ctx.provide(metricsFeedRef, feed);
    // DECISIONS #27: a flag promises its routes. The dashboard calls /metrics/filesystems,
    // /metrics/network-interfaces and /metrics/history/storage when these are true; stackd does
    // not serve those yet, so they stay false (declared, for when it does).
    ctx.capability('metrics_history_storage', false);
    ctx.capability('metrics_filesystem_selection', false);
    ctx.capability('metrics_network_interface_selection', false);
    ctx.route(latestMetricsRoute(feed));
    ctx.route(metricsHistoryRoute(feed));
    ctx.route(metricsHistorySeriesRoute(feed));
    ctx.route(metricsSeriesRoute(feed));
    const consumer: TickConsumer = new TickConsumer(
      ctx.metricsFeed,
      feed,
      (view) => publish(view),
      {
        intervalMs: config.interval_ms,
        historyEveryMs: config.history_enabled ? config.history_interval_sec * 1000 : null,
      },
    );
    // /ws/metrics
    const publish = registerMetricsStream(ctx, feed, config.interval_ms, (clients) =>
      consumer.clientsChanged(clients),
    );

    ctx.onStart(() => {
      if (!config.history_enabled) return consumer.start(undefined);
      const store = new MetricsHistoryStore(ctx.storage.openDatabase('history.sqlite'));
      feed.useStore(store);
      const retention = {
        maxAgeMs: config.history_retention_days * DAY_MS,
        maxBytes: config.history_max_mb * 1024 * 1024,
      };
      consumer.start(new HistoryRecorder(store, retention, ctx.logger));
    });
    ctx.onStop(() => {
      consumer.stop();
      feed.useStore(null);
    });
  },
});
