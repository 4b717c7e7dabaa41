/**
 * The metrics plugin's parts, built in one place: the system collector, the feed service, the
 * tick consumer and the SQLite history, which opens and closes as the settings say. `index.ts`
 * lists what the plugin registers and hands each route the part it serves.
 */
import type { Database, PluginContext } from '../../sdk/index.js';
import type { MetricsSnapshotView } from '../../sdk/contracts/metrics-feed.js';
import { filesystemPaths, networkInterfaces, type MetricsConfig } from './config.js';
import { metricsConfigOf } from './dashboard-view.js';
import { HistoryRecorder } from './history/history-recorder.js';
import { MetricsHistoryStore, type RetentionPolicy } from './history/history-store.js';
import { MetricsFeedService } from './metrics-feed-service.js';
import { SystemCollector } from './system/system-collector.js';
import { TickConsumer } from './tick-consumer.js';

const DAY_MS = 86_400_000;
/** File name of the history database inside the plugin's storage folder. */
export const HISTORY_FILE = 'history.sqlite';

const retentionOf = (config: MetricsConfig): RetentionPolicy => ({
  maxAgeMs: config.history_retention_days * DAY_MS,
  maxBytes: config.history_max_mb * 1024 * 1024,
});

/** Everything the metrics plugin runs, made once at register time. */
export class MetricsRuntime {
  readonly collector: SystemCollector;
  readonly feed: MetricsFeedService;
  readonly consumer: TickConsumer;
  /** The settings in force: the plugin's slice at register, then each saved change. */
  private config: MetricsConfig;
  private selectedInterfaces: string[];
  private publish: (view: MetricsSnapshotView) => void = () => undefined;
  private database: Database | null = null;
  private recorder: HistoryRecorder | undefined;
  private started = false;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly ctx: PluginContext<MetricsConfig>) {
    const config = (this.config = ctx.config);
    const dataDir = ctx.host.dataDir;
    this.selectedInterfaces = networkInterfaces(config.network_interfaces);
    const collector = (this.collector = new SystemCollector({
      filesystemPaths: filesystemPaths(config.filesystem_paths, dataDir),
      networkInterfaces: this.selectedInterfaces,
      scope: config.scope,
    }));
    this.feed = new MetricsFeedService(
      filesystemPaths(config.filesystem_paths, dataDir),
      () => collector.collect(),
      (error) => ctx.logger.error('metrics feed subscriber failed', { error }),
    );
    this.consumer = new TickConsumer(ctx.metricsFeed, this.feed, (view) => this.publish(view), {
      intervalMs: config.interval_ms,
      historyEveryMs: config.history_enabled ? config.history_interval_sec * 1000 : null,
    });
    // Settings saved through POST /config apply at once (interval_ms and scope at the next start).
    this.unsubscribe = ctx.stack.onChange(({ current }) => this.settingsChanged(current));
  }

  /** The network interfaces the settings select now. */
  interfaces(): readonly string[] {
    return this.selectedInterfaces;
  }

  /** Where each tick's snapshot goes once /ws/metrics is declared. */
  publishWith(publish: (view: MetricsSnapshotView) => void): void {
    this.publish = publish;
  }

  start(): void {
    this.started = true;
    this.consumer.start(undefined);
    this.applyHistory();
  }

  stop(): void {
    this.started = false;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.consumer.stop();
    this.feed.useStore(null);
    this.recorder?.close();
    this.recorder = undefined;
    this.database?.close();
    this.database = null;
  }

  private settingsChanged(document: Parameters<typeof metricsConfigOf>[0]): void {
    const next = metricsConfigOf(document);
    if (JSON.stringify(next) === JSON.stringify(this.config)) return;
    this.config = next;
    this.selectedInterfaces = networkInterfaces(next.network_interfaces);
    const paths = filesystemPaths(next.filesystem_paths, this.ctx.host.dataDir);
    this.collector.select(paths, this.selectedInterfaces);
    this.feed.usePaths(paths);
    if (this.started) this.applyHistory();
  }

  /** Open or close history to match the settings (at start, and when settings change). */
  private applyHistory(): void {
    const { config } = this;
    if (!config.history_enabled) {
      this.recorder?.close();
      this.recorder = undefined;
      this.feed.useStore(null);
      this.database?.close();
      this.database = null;
    } else if (this.recorder === undefined) {
      this.database = this.ctx.storage.openDatabase(HISTORY_FILE);
      const store = new MetricsHistoryStore(this.database);
      this.feed.useStore(store);
      this.recorder = new HistoryRecorder(store, retentionOf(config), this.ctx.logger);
    } else {
      this.recorder.retain(retentionOf(config));
    }
    this.consumer.useHistory(
      this.recorder,
      config.history_enabled ? config.history_interval_sec * 1000 : null,
    );
  }
}
