/**
 * The answer to a distributed password guesser (docs/decisions.md §25): lockouts key on the client
 * address, so failures spread over many addresses would never lock anything. Once a username has
 * collected `afterFailures` failures within the window, from any addresses, its login attempts are
 * spaced `intervalMs` apart (each waits its turn), which caps the guessing rate for that name
 * whatever the number of addresses. Addresses that signed in as that user lately skip the queue,
 * so the owner is slowed at most, never locked out; a turn further away than `maxWaitMs` is
 * answered 429 with the wait.
 */

/** Limits of the slowdown. */
export interface SlowdownOptions {
  readonly afterFailures: number;
  readonly intervalMs: number;
  readonly windowMs: number;
  readonly maxWaitMs: number;
  /** Usernames and known addresses tracked at most (oldest dropped). */
  readonly maxEntries?: number;
  readonly now?: () => number;
}

/** Go now, wait this long first, or give up (the turn is too far). */
export type SlowdownTurn =
  | { readonly kind: 'now' }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'refuse'; readonly retryAfterMs: number };

interface NameState {
  failures: number;
  lastFailureAt: number;
  nextTurnAt: number;
}

/** Failure counts per username and the addresses that signed in lately. */
export class LoginSlowdown {
  private readonly names = new Map<string, NameState>();
  private readonly trusted = new Map<string, number>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(private readonly options: SlowdownOptions) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** Take a turn for an attempt at `username` from `address`. */
  turn(username: string, address: string): SlowdownTurn {
    const now = this.now();
    const state = this.current(username, now);
    if (state === undefined || state.failures < this.options.afterFailures) return { kind: 'now' };
    if (this.isTrusted(username, address, now)) return { kind: 'now' };
    const at = Math.max(now, state.nextTurnAt);
    const waitMs = at - now;
    if (waitMs > this.options.maxWaitMs) return { kind: 'refuse', retryAfterMs: waitMs };
    state.nextTurnAt = at + this.options.intervalMs;
    return waitMs === 0 ? { kind: 'now' } : { kind: 'wait', ms: waitMs };
  }

  /** A failed attempt at `username`. */
  failed(username: string): void {
    const now = this.now();
    const state = this.current(username, now) ?? { failures: 0, lastFailureAt: now, nextTurnAt: 0 };
    state.failures += 1;
    state.lastFailureAt = now;
    this.names.delete(username);
    this.names.set(username, state);
    trim(this.names, this.maxEntries);
  }

  /** A successful sign-in: its address is trusted for this user for a window. */
  succeeded(username: string, address: string): void {
    const key = `${username}\u0000${address}`;
    this.trusted.delete(key);
    this.trusted.set(key, this.now());
    trim(this.trusted, this.maxEntries);
  }

  private isTrusted(username: string, address: string, now: number): boolean {
    const at = this.trusted.get(`${username}\u0000${address}`);
    // Trust lasts much longer than a failure window: the owner's usual addresses stay fast.
    return at !== undefined && now - at <= 30 * this.options.windowMs;
  }

  private current(username: string, now: number): NameState | undefined {
    const state = this.names.get(username);
    if (state === undefined) return undefined;
    if (now - Math.max(state.lastFailureAt, state.nextTurnAt) > this.options.windowMs) {
      this.names.delete(username);
      return undefined;
    }
    return state;
  }
}

function trim<K, V>(map: Map<K, V>, max: number): void {
  for (const key of map.keys()) {
    if (map.size <= max) return;
    map.delete(key);
  }
}
