/**
 * Metrics collectors on shared timers (one per interval), the latest snapshot, and subscribers.
 * A tick that overruns its interval is aborted so collectors never pile up.
 */
import { isoTime } from '../../sdk/iso-time.js';
import type { MetricsReader } from '../../sdk/context.js';
import type { Logger } from '../../sdk/logger.js';
import type {
  MetricsCollectorDefinition,
  MetricsSample,
  MetricsSnapshot,
} from '../../sdk/metrics.js';

const DEFAULT_INTERVAL_MS = 2000;

interface Collector {
  readonly owner: string;
  readonly definition: MetricsCollectorDefinition;
}

/** All collectors of one host. */
export class MetricsRegistry implements MetricsReader {
  private readonly collectors: Collector[] = [];
  private readonly samples = new Map<string, MetricsSample>();
  /** Subscribers and how often each needs a snapshot (0: every collector tick). */
  private readonly listeners = new Map<(snapshot: MetricsSnapshot) => void, number>();
  /** The demand the running timers were built for. */
  private timerDemandMs = -1;
  private readonly timers: NodeJS.Timeout[] = [];
  private latestSnapshot: MetricsSnapshot | null = null;
  private started = false;
  private stopping = new AbortController();

  constructor(private readonly logger: Logger) {}

  /** Add a collector; names are unique across plugins. */
  add(owner: string, definition: MetricsCollectorDefinition): void {
    const clash = this.collectors.find(
      (collector) => collector.definition.name === definition.name,
    );
    if (clash !== undefined) {
      throw new Error(
        `metrics collector '${definition.name}' is declared by both plugin '${clash.owner}' and plugin '${owner}'`,
      );
    }
    this.collectors.push({ owner, definition });
  }

  /**
   * Allow collection (after plugins started). Timers run only while someone subscribes: with no
   * consumer (no metrics plugin, nobody streaming) the host does not sample anything.
   */
  start(): void {
    this.started = true;
    if (this.listeners.size > 0) this.startTimers();
  }

  /** The shortest interval any subscriber needs. */
  private demandMs(): number {
    return Math.min(...this.listeners.values());
  }

  private startTimers(): void {
    const demand = this.demandMs();
    if (this.timers.length > 0 && demand === this.timerDemandMs) return;
    this.stopTimers();
    this.timerDemandMs = demand;
    this.stopping = new AbortController();
    const groups = new Map<number, Collector[]>();
    for (const collector of this.collectors) {
      // A collector without its own interval follows the demand (the default when none is set).
      const own = collector.definition.intervalMs ?? (demand > 0 ? demand : DEFAULT_INTERVAL_MS);
      const interval = Math.max(100, own, demand);
      groups.set(interval, [...(groups.get(interval) ?? []), collector]);
    }
    for (const [interval, group] of groups) {
      void this.tick(group, interval);
      const timer = setInterval(() => void this.tick(group, interval), interval);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Stop the timers and abort running collections. */
  stop(): void {
    this.started = false;
    this.stopTimers();
  }

  private stopTimers(): void {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    this.stopping.abort();
  }

  /** Collect every collector once now (tests, on-demand reads). */
  async collectNow(): Promise<MetricsSnapshot> {
    await this.tick(this.collectors, 10_000);
    return this.latest() ?? { timestamp: isoTime(), collectors: {} };
  }

  latest(): MetricsSnapshot | null {
    return this.latestSnapshot;
  }

  subscribe(
    listener: (snapshot: MetricsSnapshot) => void,
    options: { readonly everyMs?: number } = {},
  ): () => void {
    this.listeners.set(listener, Math.max(0, options.everyMs ?? 0));
    if (this.started) this.startTimers();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopTimers();
      else if (this.started) this.startTimers();
    };
  }

  private async tick(group: readonly Collector[], budgetMs: number): Promise<void> {
    if (group.length === 0) return;
    const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(budgetMs)]);
    await Promise.all(
      group.map(async ({ owner, definition }) => {
        try {
          this.samples.set(definition.name, await definition.collect(signal));
        } catch (error) {
          if (!this.stopping.signal.aborted)
            this.logger.warn(`collector ${owner}/${definition.name} failed`, { error });
        }
      }),
    );
    if (this.stopping.signal.aborted) return;
    this.latestSnapshot = {
      timestamp: isoTime(),
      collectors: Object.fromEntries(this.samples),
    };
    for (const listener of this.listeners.keys()) {
      try {
        listener(this.latestSnapshot);
      } catch (error) {
        this.logger.error('metrics subscriber failed', { error });
      }
    }
  }
}
