/**
 * Login throttling (docs/decisions.md §10). Failures are counted per key (a username, a client address);
 * once a key reaches its limit within the window it is locked, and every further failure doubles
 * the lockout up to a cap. A key is forgotten a window after its last failure (or lockout end). The
 * clock is injected so tests need no waiting.
 */

/** Limits of one kind of key. */
export interface KeyPolicy {
  readonly maxFailures: number;
}

/** Shared timing of every key. */
export interface RateLimiterOptions {
  readonly windowMs: number;
  readonly lockoutBaseMs: number;
  readonly lockoutMaxMs: number;
  /** Most keys tracked at once; the oldest are dropped beyond it (memory stays bounded). */
  readonly maxKeys?: number;
  /** Milliseconds since the epoch. */
  readonly now?: () => number;
}

/** Answer of {@link RateLimiter.check}. */
export type RateDecision =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterMs: number };

interface KeyState {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
}

/** A key that a failure just locked, and for how long. */
export interface Lockout {
  readonly key: string;
  readonly lockoutMs: number;
}

/** A limited key: its name and the policy for it. */
export interface LimitedKey {
  readonly key: string;
  readonly policy: KeyPolicy;
}

/** Counts failures per key and says when a key is locked. */
export class RateLimiter {
  private readonly keys = new Map<string, KeyState>();
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(private readonly options: RateLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.maxKeys = options.maxKeys ?? 10_000;
  }

  /** Allowed unless one of the keys is locked; then the longest remaining lock. */
  check(keys: readonly LimitedKey[]): RateDecision {
    const now = this.now();
    let retryAfterMs = 0;
    for (const { key } of keys) {
      const state = this.current(key, now);
      if (state !== undefined && state.lockedUntil > now)
        retryAfterMs = Math.max(retryAfterMs, state.lockedUntil - now);
    }
    return retryAfterMs > 0 ? { allowed: false, retryAfterMs } : { allowed: true };
  }

  /**
   * Count a failure against every key; locks the ones that reached their limit and returns
   * them with their lockout (so callers can log each lockout once, not each refused attempt).
   */
  recordFailure(keys: readonly LimitedKey[]): Lockout[] {
    const now = this.now();
    const locked: Lockout[] = [];
    for (const { key, policy } of keys) {
      const state = this.current(key, now) ?? { failures: 0, lastFailureAt: now, lockedUntil: 0 };
      state.failures += 1;
      state.lastFailureAt = now;
      const excess = state.failures - policy.maxFailures;
      if (excess >= 0) {
        const lockout = Math.min(
          this.options.lockoutMaxMs,
          this.options.lockoutBaseMs * 2 ** Math.min(excess, 30),
        );
        state.lockedUntil = now + lockout;
        locked.push({ key, lockoutMs: lockout });
      }
      // Re-insert so the map's order is oldest-touched first.
      this.keys.delete(key);
      this.keys.set(key, state);
    }
    this.trim();
    return locked;
  }

  /** Forget a key (a successful login clears its username). */
  reset(key: string): void {
    this.keys.delete(key);
  }

  /** Keys tracked right now (for tests and metrics). */
  get size(): number {
    return this.keys.size;
  }

  private current(key: string, now: number): KeyState | undefined {
    const state = this.keys.get(key);
    if (state === undefined) return undefined;
    const idleSince = Math.max(state.lastFailureAt, state.lockedUntil);
    if (now - idleSince > this.options.windowMs) {
      this.keys.delete(key);
      return undefined;
    }
    return state;
  }

  private trim(): void {
    for (const key of this.keys.keys()) {
      if (this.keys.size <= this.maxKeys) return;
      this.keys.delete(key);
    }
  }
}
