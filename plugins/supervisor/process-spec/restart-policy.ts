/**
 * Auto-restart decisions (docs/decisions.md §14), pure: exponential backoff capped at `max_sec`, reset
 * once a run stayed up `reset_after_sec`, and at most `max_restarts` automatic restarts within
 * a sliding `window_seconds`, after which the process is left crashed.
 */

/** The numbers of a policy, all in seconds. */
export interface RestartPolicy {
  readonly baseSec: number;
  readonly factor: number;
  readonly maxSec: number;
  readonly resetAfterSec: number;
  readonly maxRestarts: number;
  readonly windowSec: number;
}

/** What to do after an unexpected exit. */
export type RestartDecision =
  | { readonly action: 'restart'; readonly delayMs: number; readonly attempt: number }
  | { readonly action: 'give-up'; readonly reason: string };

/** The delay before restart number `attempt` (0-based), in milliseconds. */
export function backoffDelayMs(policy: RestartPolicy, attempt: number): number {
  const seconds = Math.min(policy.maxSec, policy.baseSec * policy.factor ** attempt);
  return Math.round(seconds * 1000);
}

/** Restart history of one process. */
export class RestartTracker {
  /** Consecutive quick failures: the backoff exponent. */
  private consecutive = 0;
  /** When automatic restarts were scheduled (epoch ms), for the window. */
  private scheduled: number[] = [];

  constructor(private policy: RestartPolicy) {}

  /** Use a changed policy from the next decision on (the block may have been edited). */
  setPolicy(policy: RestartPolicy): void {
    this.policy = policy;
  }

  /** Forget the history (a manual start). */
  reset(): void {
    this.consecutive = 0;
    this.scheduled = [];
  }

  /** Decide after an exit that followed `uptimeMs` of running, at time `now`. */
  decide(uptimeMs: number, now: number): RestartDecision {
    const { policy } = this;
    if (uptimeMs >= policy.resetAfterSec * 1000) this.consecutive = 0;
    const windowStart = now - policy.windowSec * 1000;
    this.scheduled = this.scheduled.filter((at) => at > windowStart);
    if (this.scheduled.length >= policy.maxRestarts) {
      return {
        action: 'give-up',
        reason: `gave up after ${this.scheduled.length} restarts within ${policy.windowSec} s`,
      };
    }
    const attempt = this.consecutive;
    this.consecutive += 1;
    this.scheduled.push(now);
    return { action: 'restart', delayMs: backoffDelayMs(policy, attempt), attempt: attempt + 1 };
  }
}
