/** A result list that keeps at most `limit` items while its count stays exact. */
export class CappedList<T> {
  readonly items: T[] = [];
  total = 0;

  constructor(private readonly limit: number) {}

  push(item: T): void {
    this.total += 1;
    if (this.items.length < this.limit) this.items.push(item);
  }

  get truncated(): boolean {
    return this.total > this.items.length;
  }
}
