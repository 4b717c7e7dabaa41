/**
 * The data dir's health: free space (statfs) and the storage failures seen lately. `/health`
 * reports it; the error mapper records every failure it answers.
 */
import { statfsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import type { HealthResult } from '../../sdk/context.js';
import type { StorageErrorKind, StorageFailureKind } from './storage-failure.js';

/** Below this much free space the data dir counts as full. */
const MIN_FREE_BYTES = 1024 * 1024;
/** Failures older than this no longer make the host unhealthy. */
const RECENT_MS = 60_000;
/**
 * A free-space reading is reused this long: /health may be polled thousands of times a second
 * (load balancers, a benchmark), and a statfs through the thread pool per request cut its
 * throughput by half. An older reading is still answered while a new one is taken, so a steady
 * /health never waits; a disk filling up is seen within a second or two.
 */
const FREE_SPACE_TTL_MS = 1000;

/** Free space and recent failures of one data dir. */
export class StorageStatus {
  private lastFailure: { kind: StorageFailureKind; at: number; count: number } | undefined;
  /** The newest statfs started, and the newest answered (bytes null: statfs unsupported). */
  private reading: { at: number; pending: Promise<number | null> } | undefined;
  private known: { at: number; bytes: number | null } | undefined;

  constructor(readonly dataDir: string) {}

  /** An I/O error is a full disk when the data dir has (almost) no space left. */
  resolve(kind: StorageErrorKind): StorageFailureKind {
    if (kind !== 'io') return kind;
    try {
      const stats = statfsSync(this.dataDir);
      return stats.bavail * stats.bsize < MIN_FREE_BYTES ? 'full' : 'unwritable';
    } catch {
      return 'unwritable';
    }
  }

  /** Note a failed write (counted per minute). */
  recordFailure(kind: StorageFailureKind): void {
    const now = Date.now();
    const recent = this.lastFailure !== undefined && now - this.lastFailure.at < RECENT_MS;
    this.lastFailure = { kind, at: now, count: recent ? (this.lastFailure?.count ?? 0) + 1 : 1 };
  }

  /** What a client is told (detail) and the status for it. */
  describe(kind: StorageFailureKind): { status: 503 | 507; code: string; detail: string } {
    return kind === 'full'
      ? {
          status: 507,
          code: 'STORAGE_FULL',
          detail: `No space left for the data dir ${this.dataDir}: nothing was changed; free some space and retry`,
        }
      : {
          status: 503,
          code: 'STORAGE_UNWRITABLE',
          detail: `The data dir ${this.dataDir} cannot be written (read-only or no permission): nothing was changed`,
        };
  }

  /**
   * Unhealthy while the data dir is (nearly) full or writes failed within the last minute.
   * Synchronous once a free-space reading exists (the common case: no timer, no promise).
   */
  health(): HealthResult | Promise<HealthResult> {
    const free = this.freeBytes();
    return free instanceof Promise ? free.then((bytes) => this.judge(bytes)) : this.judge(free);
  }

  private judge(free: number | null): HealthResult {
    let spaceBack = false;
    if (free !== null) {
      if (free < MIN_FREE_BYTES)
        return {
          healthy: false,
          details: `data dir ${this.dataDir} is full (${Math.floor(free / 1024)} KiB free)`,
        };
      spaceBack = true;
    }
    const failure = this.lastFailure;
    // A full disk that has space again is healthy at once; other failures count for a minute.
    if (failure?.kind === 'full' && spaceBack) return { healthy: true };
    if (failure !== undefined && Date.now() - failure.at < RECENT_MS)
      return {
        healthy: false,
        details: `writes to the data dir ${this.dataDir} failed (${failure.kind === 'full' ? 'no space left' : 'unwritable'}, ${failure.count}× in the last minute)`,
      };
    return { healthy: true };
  }

  /**
   * Free bytes of the data dir (null when statfs is unsupported): the last reading, a new one
   * started when it is older than a second; a promise only before the first reading.
   */
  private freeBytes(): number | null | Promise<number | null> {
    const now = Date.now();
    if (this.reading === undefined || now - this.reading.at >= FREE_SPACE_TTL_MS) {
      const pending = statfs(this.dataDir).then(
        (stats) => stats.bavail * stats.bsize,
        () => null, // statfs unsupported: rely on the failures seen.
      );
      void pending.then((bytes) => {
        if (this.known === undefined || this.known.at < now) this.known = { at: now, bytes };
      });
      this.reading = { at: now, pending };
    }
    return this.known === undefined ? this.reading.pending : this.known.bytes;
  }
}
