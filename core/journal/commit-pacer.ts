/**
 * When the journal commits (group commit): an event published while no commit is due is
 * committed on the next turn of the event loop, together with everything else published in the
 * same turn; commits are at least `intervalMs` apart, so events arriving in between wait for the
 * next one.
 */
export class CommitPacer {
  private timer: NodeJS.Timeout | undefined;
  private turn: NodeJS.Immediate | undefined;
  private lastCommitAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly intervalMs: number,
    private readonly commit: () => void,
  ) {}

  /**
   * Commit on the next turn when the last commit is at least the interval old, else when it
   * will be. A commit already scheduled takes this event too.
   */
  schedule(): void {
    if (this.turn !== undefined || this.timer !== undefined) return;
    const wait = this.lastCommitAt + this.intervalMs - performance.now();
    if (wait <= 0) this.turn = setImmediate(this.commit);
    else this.timer = setTimeout(this.commit, wait);
  }

  /** Commit after `delayMs` unless a timed commit is already set (a failed batch's retry). */
  retryAfter(delayMs: number): void {
    this.timer ??= setTimeout(this.commit, delayMs);
  }

  /** A commit happened now: the next one waits for the interval. */
  committed(): void {
    this.lastCommitAt = performance.now();
  }

  /** Forget the scheduled commit, if any. */
  cancel(): void {
    clearTimeout(this.timer);
    clearImmediate(this.turn);
    this.timer = undefined;
    this.turn = undefined;
  }
}
