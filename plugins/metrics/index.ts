/**
 * The metrics plugin: the `system` collector, GET /metrics, /ws/metrics, SQLite history with
 * series reads, the `metrics.feed` service, and the settings DUMB's Metrics page edits
 * (`dumb.metrics`, candidates, storage status). Per-process figures come from the supervisor's
 * `processes` collector through core's shared feed, so this plugin also works without it.
 */
import { definePlugin } from '../../sdk/index.js';
import { metricsFeedRef } from '../../sdk/contracts/metrics-feed.js';
import { MetricsConfig } from './config.js';
import { metricsDashboardView } from './dashboard-view.js';
import { HISTORY_FILE, MetricsRuntime } from './metrics-runtime.js';
import {
  latestMetricsRoute,
  metricsHistoryRoute,
  metricsHistorySeriesRoute,
  metricsSeriesRoute,
} from './routes/metrics-routes.js';
import { filesystemCandidatesRoute, interfaceCandidatesRoute } from './routes/selection-routes.js';
import { historyMigrateRoute, historyStorageRoute } from './routes/storage-routes.js';
import { registerMetricsStream } from './streams/metrics-stream.js';
import { HistoryWireCache } from './wire/history-text.js';

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
    const runtime = new MetricsRuntime(ctx);
    const { feed, collector } = runtime;
    ctx.metrics({
      name: 'system',
      intervalMs: ctx.config.interval_ms,
      collect: () => collector.collect(),
    });
    ctx.provide(metricsFeedRef, feed);
    const sqlitePath = ctx.storage.path(HISTORY_FILE);
    ctx.stack.addView(metricsDashboardView({ dir: ctx.storage.dir, sqlitePath }));
    // docs/decisions.md §27: each flag promises the routes the dashboard calls when it is true.
    ctx.capability('metrics_history_storage', true);
    ctx.capability('metrics_filesystem_selection', true);
    ctx.capability('metrics_network_interface_selection', true);
    ctx.route(latestMetricsRoute(feed, ctx.exposition));
    const wireTexts = new HistoryWireCache();
    ctx.route(metricsHistoryRoute(feed, wireTexts));
    ctx.route(metricsHistorySeriesRoute(feed, wireTexts));
    ctx.route(metricsSeriesRoute(feed));
    ctx.route(filesystemCandidatesRoute(feed));
    ctx.route(interfaceCandidatesRoute(() => runtime.interfaces()));
    ctx.route(historyStorageRoute(feed, sqlitePath));
    ctx.route(historyMigrateRoute());
    runtime.publishWith(
      registerMetricsStream(ctx, feed, ctx.config.interval_ms, (clients) =>
        runtime.consumer.clientsChanged(clients),
      ),
    );

    ctx.onStart(() => runtime.start());
    ctx.onStop(() => runtime.stop());
  },
});
