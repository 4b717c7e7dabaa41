/**
 * Per-client pacing of /ws/metrics: every client gets the shared frame of a tick, or skips it
 * when its own interval has not elapsed yet. Frames are never faster than collection.
 */

/** Allowed client intervals in seconds (unparsable → the default). */
export const MIN_INTERVAL_SEC = 0.5;
export const MAX_INTERVAL_SEC = 10;
export const DEFAULT_INTERVAL_SEC = 2;

/** Clamp a requested interval into [0.5, 10] seconds. */
export function clampInterval(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return DEFAULT_INTERVAL_SEC;
  return Math.min(MAX_INTERVAL_SEC, Math.max(MIN_INTERVAL_SEC, requested));
}

/** Remembers when each client last got a frame. */
export class FrameSchedule {
  private readonly clients = new Map<number, { intervalMs: number; lastSent: number }>();

  /** @param tickMs the collection interval: timer jitter up to half of it still counts as due. */
  constructor(private readonly tickMs: number) {}

  /** A client connected and got its first frame at `now`. */
  add(clientId: number, intervalSec: number, now: number): void {
    this.clients.set(clientId, { intervalMs: clampInterval(intervalSec) * 1000, lastSent: now });
  }

  remove(clientId: number): void {
    this.clients.delete(clientId);
  }

  /** True (and recorded as sent) when the client should get the frame of the tick at `now`. */
  due(clientId: number, now: number): boolean {
    const client = this.clients.get(clientId);
    if (client === undefined) return false;
    if (now - client.lastSent < client.intervalMs - this.tickMs / 2) return false;
    client.lastSent = now;
    return true;
  }
}
