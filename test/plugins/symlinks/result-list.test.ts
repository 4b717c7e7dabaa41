/** The capped result list keeps the first items and an exact count. */
import test from 'ava';
import { CappedList } from '../../../plugins/symlinks/result-list.js';

test('keeps at most the limit, counts every push, and says when it dropped some', (t) => {
  const list = new CappedList<number>(2);
  t.false(list.truncated);
  for (const value of [1, 2, 3, 4]) list.push(value);
  t.deepEqual(list.items, [1, 2]);
  t.is(list.total, 4);
  t.true(list.truncated);
});

test('a limit of 0 lists nothing but still counts', (t) => {
  const list = new CappedList<string>(0);
  list.push('a');
  t.deepEqual(list.items, []);
  t.is(list.total, 1);
  t.true(list.truncated);
});
