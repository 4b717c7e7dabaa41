/**
 * The times of the stored snapshots, ascending, kept in memory beside the table. Every history
 * read starts by choosing rows by time; answering that from memory spares a query (and the
 * database's file lock) per read. 8 bytes a row: a week at 15 s is ~320 KB.
 */
export class StoredTimes {
  private readonly times: number[];

  /** `ascending`: the table's times, oldest first. */
  constructor(ascending: readonly number[]) {
    this.times = [...ascending];
  }

  get count(): number {
    return this.times.length;
  }

  get oldest(): number | null {
    return this.times[0] ?? null;
  }

  get newest(): number | null {
    return this.times.at(-1) ?? null;
  }

  /** A row written (its time not stored yet). */
  add(at: number): void {
    const last = this.times.at(-1);
    // Snapshots arrive in time order: the common case appends.
    if (last === undefined || at > last) this.times.push(at);
    else this.times.splice(this.firstAtOrAfter(at), 0, at);
  }

  /** Rows before `at` deleted. */
  dropBefore(at: number): void {
    this.times.splice(0, this.firstAtOrAfter(at));
  }

  /** The oldest `count` rows deleted. */
  dropOldest(count: number): void {
    this.times.splice(0, count);
  }

  /** The latest `limit` times within [since, until], oldest first; truncated when more matched. */
  latest(sinceMs: number, untilMs: number, limit: number): { times: number[]; truncated: boolean } {
    const start = this.firstAtOrAfter(sinceMs);
    const end = this.firstAtOrAfter(untilMs + 1);
    const from = Math.max(start, end - limit);
    return { times: this.times.slice(from, end), truncated: from > start };
  }

  /** Index of the first time ≥ `at` (the length when none). */
  private firstAtOrAfter(at: number): number {
    let low = 0;
    let high = this.times.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.times[middle] ?? 0) < at) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
