import test from 'ava';
import { StoredTimes } from '../../../plugins/metrics/history/stored-times.js';

/** What the table's query answers: the latest `limit` in [since, until], oldest first. */
function naive(times: readonly number[], since: number, until: number, limit: number) {
  const inside = [...times].sort((a, b) => a - b).filter((at) => at >= since && at <= until);
  return {
    times: inside.slice(Math.max(0, inside.length - limit)),
    truncated: inside.length > limit,
  };
}

test('latest: the same rows as the table query, for windows inside, across and outside', (t) => {
  const times = Array.from({ length: 50 }, (_, index) => 1000 + index * 15);
  const stored = new StoredTimes(times);
  for (const [since, until] of [
    [0, 10_000],
    [1000, 1000],
    [1001, 1014],
    [1100, 1400],
    [1747, 5000],
    [0, 999],
    [1736, 1736],
  ] as const)
    for (const limit of [1, 3, 50, 500])
      t.deepEqual(stored.latest(since, until, limit), naive(times, since, until, limit));
});

test('rows added out of order, and dropped by age or oldest first, keep the order', (t) => {
  const stored = new StoredTimes([10, 20, 30]);
  stored.add(40);
  stored.add(25);
  stored.add(5);
  t.deepEqual(stored.latest(0, 100, 10).times, [5, 10, 20, 25, 30, 40]);
  stored.dropBefore(20);
  t.deepEqual(stored.latest(0, 100, 10).times, [20, 25, 30, 40]);
  stored.dropOldest(2);
  t.deepEqual(stored.latest(0, 100, 10).times, [30, 40]);
  t.is(stored.count, 2);
  t.is(stored.oldest, 30);
  t.is(stored.newest, 40);
  stored.dropOldest(5);
  t.is(stored.oldest, null);
  t.is(stored.newest, null);
});
