/**
 * Long synchronous work cut into turns of the event loop by time rather than by count: a loop asks
 * `spent()` as it goes and awaits `next()` once its turn used the budget, so requests, streams and
 * timers run in between. Counting items instead (100 processes a turn) let one turn take 1 ms on
 * an idle machine and 10 ms on a loaded one, or with a thousand series per item.
 */
import { setImmediate } from 'node:timers/promises';

/**
 * How long one turn of such work may hold the loop. Other callbacks of the same loop iteration
 * (a young-generation GC, a request's routing, another sliced job) add to it: 1 ms keeps the
 * whole iteration within a few.
 */
export const TURN_BUDGET_MS = 1;

/** The time one piece of long work has used in the current turn of the event loop. */
export class TurnBudget {
  private started = performance.now();

  constructor(private readonly budgetMs: number = TURN_BUDGET_MS) {}

  /** Whether this turn used its budget (then await {@link next}). */
  spent(): boolean {
    return performance.now() - this.started >= this.budgetMs;
  }

  /**
   * Let the event loop turn, then start a new budget. Two hops: from an I/O callback (a request),
   * the first immediate runs in the same iteration of the loop, before its timers.
   */
  async next(): Promise<void> {
    await setImmediate();
    await setImmediate();
    this.started = performance.now();
  }
}
