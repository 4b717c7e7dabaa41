/**
 * The metrics plugin: the `system` collector, GET /metrics, /ws/metrics, SQLite history with
 * series reads, the `metrics.feed` service, and the settings DUMB's Metrics page edits
 * (`dumb.metrics`, candidates, storage status). Per-process figures come from the supervisor's
 * `processes` collector through core's shared feed, so this plugin also works without it.
 */
import { definePlugin, type Database } from '../../sdk/index.js';
import { metricsFeedRef } from '../../sdk/contracts/metrics-feed.js';
import { filesystemPaths, MetricsConfig, networkInterfaces } from './config.js';
import { metricsConfigOf, metricsDashboardView } from './dashboard-view.js';
import { HistoryRecorder } from './history/history-recorder.js';
import { MetricsHistoryStore, type RetentionPolicy } from './history/history-store.js';
import { MetricsFeedService } from './metrics-feed-service.js';
import {
  latestMetricsRoute,
  metricsHistoryRoute,
  metricsHistorySeriesRoute,
  metricsSeriesRoute,
} from './routes/metrics-routes.js';
import { filesystemCandidatesRoute, interfaceCandidatesRoute } from './routes/selection-routes.js';
import { historyMigrateRoute, historyStorageRoute } from './routes/storage-routes.js';
import { registerMetricsStream } from './streams/metrics-stream.js';
import { SystemCollector } from './system/system-collector.js';
import { TickConsumer } from './tick-consumer.js';

const DAY_MS = 86_400_000;
const HISTORY_FILE = 'history.sqlite';

const retentionOf = (config: MetricsConfig): RetentionPolicy => ({
  maxAgeMs: config.history_retention_days * DAY_MS,
  maxBytes: config.history_max_mb * 1024 * 1024,
});

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
    let config = ctx.config;
    const dataDir = ctx.host.dataDir;
    let interfaces = networkInterfaces(config.network_interfaces);
    const collector = new SystemCollector({
      filesystemPaths: filesystemPaths(config.filesystem_paths, dataDir),
      networkInterfaces: interfaces,
      scope: config.scope,
    });
    const feed = new MetricsFeedService(
      filesystemPaths(config.filesystem_paths, dataDir),
      () => collector.collect(),
      (error) => ctx.logger.error('metrics feed subscriber failed', { error }),
    );
    ctx.metrics({
      name: 'system',
      intervalMs: config.interval_ms,
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
    ctx.route(metricsHistoryRoute(feed));
    ctx.route(metricsHistorySeriesRoute(feed));
    ctx.route(metricsSeriesRoute(feed));
    ctx.route(filesystemCandidatesRoute(feed));
    ctx.route(interfaceCandidatesRoute(() => interfaces));
    ctx.route(historyStorageRoute(feed, sqlitePath));
    ctx.route(historyMigrateRoute());
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

    let database: Database | null = null;
    let recorder: HistoryRecorder | undefined;
    /** Open or close history to match `config` (at start, and when settings change). */
    const applyHistory = () => {
      if (!config.history_enabled) {
        recorder?.flush();
        recorder = undefined;
        feed.useStore(null);
        database?.close();
        database = null;
      } else if (recorder === undefined) {
        database = ctx.storage.openDatabase(HISTORY_FILE);
        const store = new MetricsHistoryStore(database);
        feed.useStore(store);
        recorder = new HistoryRecorder(store, retentionOf(config), ctx.logger);
      } else {
        recorder.retain(retentionOf(config));
      }
      consumer.useHistory(
        recorder,
        config.history_enabled ? config.history_interval_sec * 1000 : null,
      );
    };
    let started = false;
    // Settings saved through POST /config apply at once (interval_ms and scope at the next start).
    const unsubscribe = ctx.stack.onChange(({ current }) => {
      const next = metricsConfigOf(current);
      if (JSON.stringify(next) === JSON.stringify(config)) return;
      config = next;
      interfaces = networkInterfaces(config.network_interfaces);
      const paths = filesystemPaths(config.filesystem_paths, dataDir);
      collector.select(paths, interfaces);
      feed.usePaths(paths);
      if (started) applyHistory();
    });

    ctx.onStart(() => {
      started = true;
      consumer.start(undefined);
      applyHistory();
    });
    ctx.onStop(() => {
      started = false;
      unsubscribe();
      consumer.stop();
      feed.useStore(null);
      recorder?.flush();
      recorder = undefined;
      database?.close();
      database = null;
    });
  },
});
