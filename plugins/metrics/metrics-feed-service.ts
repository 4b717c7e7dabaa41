/**
 * The `metrics.feed` service: the latest snapshot (system + processes), its subscribers, and
 * history/series reads. It knows nothing about HTTP; routes and the stream call into it.
 */
import { isoTime } from '../../sdk/index.js';
import type { MetricsSnapshot } from '../../sdk/index.js';
import type {
  MetricsFeed,
  MetricsHistoryPage,
  MetricsHistoryQuery,
  MetricsSeries,
  MetricsSeriesQuery,
  MetricsSnapshotView,
  SystemMetrics,
} from '../../sdk/contracts/metrics-feed.js';
import type { MetricsHistoryStore } from './history/history-store.js';
import { queryWindow, runSeriesQuery, windowMs } from './history/series-query.js';
import { processMetricsFrom } from './process-samples.js';

/** Default number of snapshots a history read returns. */
export const DEFAULT_HISTORY_LIMIT = 500;

/** Build the wire snapshot from core's shared snapshot (in turns of the event loop). */
export async function snapshotView(snapshot: MetricsSnapshot): Promise<MetricsSnapshotView> {
  return {
    timestamp: snapshot.timestamp,
    system: (snapshot.collectors.system as SystemMetrics | undefined) ?? null,
    processes: await processMetricsFrom(snapshot.collectors.processes),
  };
}

/** Implements {@link MetricsFeed} for the metrics plugin. */
export class MetricsFeedService implements MetricsFeed {
  private current: MetricsSnapshotView | null = null;
  private lastSystem: unknown;
  private readonly listeners = new Set<(snapshot: MetricsSnapshotView) => void>();
  private store: MetricsHistoryStore | null = null;

  constructor(
    private paths: readonly string[],
    /** Collect a system sample now (before the first tick). */
    private readonly collectSystem: () => Promise<SystemMetrics>,
    private readonly onListenerError: (error: unknown) => void,
  ) {}

  /** Attach (or detach) the history store. */
  useStore(store: MetricsHistoryStore | null): void {
    this.store = store;
  }

  /**
   * Take core's snapshot after a tick. Only ticks that carry a new system sample count: a
   * collector on another interval ticking must not produce an extra frame.
   * Resolves with the new view, or null when nothing changed (or a newer snapshot overtook it
   * while its process entries were checked).
   */
  async accept(snapshot: MetricsSnapshot): Promise<MetricsSnapshotView | null> {
    const system = snapshot.collectors.system;
    if (system === undefined || system === this.lastSystem) return null;
    this.lastSystem = system;
    const view = await snapshotView(snapshot);
    if (this.lastSystem !== system) return null;
    this.current = view;
    for (const listener of this.listeners) {
      try {
        listener(view);
      } catch (error) {
        this.onListenerError(error);
      }
    }
    return view;
  }

  /** Report a subscriber's failure the way the feed reports its own listeners' ones. */
  reportListenerError(error: unknown): void {
    this.onListenerError(error);
  }

  latest(): MetricsSnapshotView | null {
    return this.current;
  }

  /** The latest snapshot, or one collected now when no tick has run yet. */
  async latestOrFresh(): Promise<MetricsSnapshotView> {
    if (this.current !== null) return this.current;
    const system = await this.collectSystem();
    return this.current ?? { timestamp: isoTime(), system, processes: {} };
  }

  subscribe(listener: (snapshot: MetricsSnapshotView) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  filesystemPaths(): readonly string[] {
    return this.paths;
  }

  /** The monitored paths changed (settings); the first is the primary one of series reads. */
  usePaths(paths: readonly string[]): void {
    this.paths = paths;
  }

  /** The attached history store, or null without history. */
  get historyStore(): MetricsHistoryStore | null {
    return this.store;
  }

  /** Whether snapshots are being stored. */
  get historyActive(): boolean {
    return this.store !== null;
  }

  // The store is synchronous; the promise form leaves room for a remote store. An executor's
  // throw becomes the rejection, so input errors reach callers the same way either way.
  history(query: MetricsHistoryQuery = {}): Promise<MetricsHistoryPage> {
    return new Promise((resolve) => {
      const window = windowMs(queryWindow(query.since, query.until));
      const limit = query.limit ?? DEFAULT_HISTORY_LIMIT;
      resolve(
        this.store?.read(window, limit) ?? {
          items: [],
          truncated: false,
        },
      );
    });
  }

  series(query: MetricsSeriesQuery): Promise<MetricsSeries> {
    return new Promise((resolve) =>
      resolve(runSeriesQuery(this.store, query, this.paths[0] ?? null)),
    );
  }
}
