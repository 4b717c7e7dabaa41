/** Rates from monotonic counters, shared by the live collector and the history series. */

/**
 * How much a counter grew between two readings. A smaller reading means the counter was reset
 * (interface re-created, device re-attached): it restarted from zero, so it grew by at least its
 * current value, which is what we count (the convention Prometheus' rate() uses).
 */
export function counterIncrease(previous: number, current: number): number {
  return current >= previous ? current - previous : current;
}

/** Growth per second between two readings, or null without a previous reading or elapsed time. */
export function ratePerSecond(
  previous: number | undefined,
  current: number,
  elapsedSec: number,
): number | null {
  if (previous === undefined || !(elapsedSec > 0)) return null;
  return counterIncrease(previous, current) / elapsedSec;
}
