/**
 * Stores the latest snapshot every history interval, writes them to disk in batches and prunes on
 * a slower schedule. A crash loses at most the batch not written yet (up to a minute of history).
 */
import type { Logger } from '../../../sdk/index.js';
import type { MetricsSnapshotView } from '../../../sdk/contracts/metrics-feed.js';
import type { MetricsHistoryStore, RetentionPolicy } from './history-store.js';
import { encodeSnapshotInTurns, SeriesPieces } from './snapshot-encoding.js';

/** Pruning runs at most this often, and whenever the store grows past its size limit. */
export const PRUNE_EVERY_MS = 5 * 60_000;

/** Pending snapshots are written at most this often (one transaction: two fsyncs and a lock). */
export const FLUSH_EVERY_MS = 60_000;

/** Records snapshots into the store. */
export class HistoryRecorder {
  private lastRecorded: string | undefined;
  private lastPruned = Number.NEGATIVE_INFINITY;
  private lastFlushed: number | undefined;
  private closed = false;
  /** The previous row's per-process series text, reused where the figures did not change. */
  private readonly pieces = new SeriesPieces();

  constructor(
    private readonly store: MetricsHistoryStore,
    private policy: RetentionPolicy,
    private readonly logger: Logger,
  ) {}

  /** New retention limits (a settings change); the next record prunes against them. */
  retain(policy: RetentionPolicy): void {
    this.policy = policy;
    this.lastPruned = Number.NEGATIVE_INFINITY;
  }

  /**
   * Store `snapshot` unless it was stored already (no new tick since); write the pending ones
   * when a batch is due, prune when due. The snapshot is encoded in turns of the event loop first
   * (a thousand processes make ~290 KB of JSON), so this resolves a few turns later.
   */
  async record(snapshot: MetricsSnapshotView | null, now = Date.now()): Promise<boolean> {
    // Nobody awaits this on the tick's path: a failure is logged, never an unhandled rejection.
    try {
      return await this.recordOrThrow(snapshot, now);
    } catch (error) {
      this.logger.warn(`metrics history: snapshot not stored: ${String(error)}`);
      return false;
    }
  }

  private async recordOrThrow(snapshot: MetricsSnapshotView | null, now: number): Promise<boolean> {
    let stored = false;
    if (snapshot !== null && snapshot.timestamp !== this.lastRecorded) {
      this.lastRecorded = snapshot.timestamp;
      const encoded = await encodeSnapshotInTurns(snapshot, undefined, this.pieces);
      // The plugin stopped (or history was turned off) while this snapshot was being encoded.
      if (this.closed) return false;
      this.store.appendEncoded(snapshot.timestamp, encoded);
      stored = true;
    }
    if (this.closed) return stored;
    // The first snapshot is written at once: a fresh store shows history right away.
    if (this.lastFlushed === undefined || now - this.lastFlushed >= FLUSH_EVERY_MS) {
      this.lastFlushed = now;
      this.store.flush();
    }
    if (now - this.lastPruned >= PRUNE_EVERY_MS || this.store.trackedBytes > this.policy.maxBytes) {
      this.lastPruned = now;
      const deleted = this.store.prune(this.policy, now);
      if (deleted > 0) this.logger.debug(`metrics history: pruned ${deleted} snapshots`);
    }
    return stored;
  }

  /** Write whatever is pending and record nothing more (the database closes next). */
  close(): void {
    this.closed = true;
    this.store.flush();
  }
}
