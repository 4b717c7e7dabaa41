/**
 * The metrics plugin's one subscription to core's ticks. It asks for `interval_ms` ticks only
 * while someone streams; otherwise only as often as history (or, without it, the notification
 * thresholds' default 30 s) needs a snapshot, so an idle host is not woken for nothing. Each
 * new snapshot is published to the stream and written to history when due (no second timer).
 */
import { setImmediate } from 'node:timers/promises';
import type { MetricsReader, MetricsSnapshot } from '../../sdk/index.js';
import type { MetricsSnapshotView } from '../../sdk/contracts/metrics-feed.js';
import type { HistoryRecorder } from './history/history-recorder.js';
import type { MetricsFeedService } from './metrics-feed-service.js';

const IDLE_DEMAND_MS = 30_000;

export interface TickConsumerOptions {
  readonly intervalMs: number;
  /** History interval in ms, or null without history. */
  readonly historyEveryMs: number | null;
}

export class TickConsumer {
  private unsubscribe: (() => void) | undefined;
  private demandMs = 0;
  private recorder: HistoryRecorder | undefined;
  private lastRecordMs = Number.NEGATIVE_INFINITY;
  private idleMs: number;
  private historyEveryMs: number | null;
  private clients = 0;
  private started = false;

  constructor(
    private readonly reader: MetricsReader,
    private readonly feed: MetricsFeedService,
    private readonly publish: (view: MetricsSnapshotView) => void,
    private readonly options: TickConsumerOptions,
  ) {
    this.historyEveryMs = options.historyEveryMs;
    this.idleMs = Math.min(options.historyEveryMs ?? IDLE_DEMAND_MS, IDLE_DEMAND_MS);
  }

  /** Begin consuming at the idle pace; history is written once a recorder is attached. */
  start(recorder: HistoryRecorder | undefined): void {
    this.started = true;
    this.recorder = recorder;
    this.demand(this.pace());
  }

  /** History turned on, off, or to another interval (a settings change). */
  useHistory(recorder: HistoryRecorder | undefined, everyMs: number | null): void {
    this.recorder = recorder;
    this.historyEveryMs = everyMs;
    this.idleMs = Math.min(everyMs ?? IDLE_DEMAND_MS, IDLE_DEMAND_MS);
    if (this.started) this.demand(this.pace());
  }

  stop(): void {
    this.started = false;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Stream clients changed: full pace while there are any. */
  clientsChanged(count: number): void {
    this.clients = count;
    if (this.started) this.demand(this.pace());
  }

  private pace(): number {
    return this.clients > 0 ? this.options.intervalMs : this.idleMs;
  }

  private demand(everyMs: number): void {
    if (everyMs === this.demandMs && this.unsubscribe !== undefined) return;
    const previous = this.unsubscribe;
    this.demandMs = everyMs;
    this.unsubscribe = this.reader.subscribe((snapshot) => void this.take(snapshot), { everyMs });
    previous?.();
  }

  /**
   * The view is built in turns of the event loop, and history's encoding starts in a turn of its
   * own, not in the one that published the frame. A consumer stopped meanwhile does neither.
   */
  private async take(snapshot: MetricsSnapshot): Promise<void> {
    // Called as `void take()`: nothing may reject out of it, or the process would stop on an
    // unhandled rejection. As when the tick called it directly, a failure is logged and the next
    // tick goes on.
    try {
      const view = await this.feed.accept(snapshot);
      if (view === null || !this.started) return;
      this.publishSafely(view);
      await setImmediate();
      if (this.started) this.recordWhenDue(view);
    } catch (error) {
      this.feed.reportListenerError(error);
    }
  }

  /** A failing subscriber is logged; the view is still recorded. */
  private publishSafely(view: MetricsSnapshotView): void {
    try {
      this.publish(view);
    } catch (error) {
      this.feed.reportListenerError(error);
    }
  }

  // A tick up to half a collection interval early still counts as due.
  private recordWhenDue(view: MetricsSnapshotView): void {
    const every = this.historyEveryMs;
    if (this.recorder === undefined || every === null) return;
    const now = Date.now();
    if (now - this.lastRecordMs < every - this.options.intervalMs / 2) return;
    this.lastRecordMs = now;
    // Encoding runs in turns of the loop; the recorder logs its own failures, never rejects.
    void this.recorder.record(view, now);
  }
}
