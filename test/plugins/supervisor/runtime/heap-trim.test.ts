import test from 'ava';
import { getHeapSpaceStatistics } from 'node:v8';
import { setTimeout as sleep } from 'node:timers/promises';
import { HeapTrim } from '../../../../plugins/supervisor/runtime/heap-trim.js';
import { eventually } from '../../../helpers/eventually.js';

test('a wave of launches is followed by one collection once it has been quiet for the settle time', async (t) => {
  let collections = 0;
  const trim = new HeapTrim(3, 100, () => (collections += 1));
  for (let index = 0; index < 5; index += 1) trim.launched();
  await sleep(20);
  trim.launched(); // still within the wave: the settle time starts again
  t.is(collections, 0);
  await eventually(() => collections === 1, { what: 'the collection' });
  await sleep(250);
  t.is(collections, 1);
});

test('a few launches leave nothing worth a collection', async (t) => {
  let collections = 0;
  const trim = new HeapTrim(3, 50, () => (collections += 1));
  trim.launched();
  trim.launched();
  await sleep(300);
  t.is(collections, 0);
});

test('close forgets a pending collection', async (t) => {
  let collections = 0;
  const trim = new HeapTrim(1, 50, () => (collections += 1));
  trim.launched();
  trim.close();
  await sleep(300);
  t.is(collections, 0);
});

test('the real collection compacts the old generation and leaves no gc global behind', async (t) => {
  const oldSpace = (): number =>
    getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_size ?? 0;
  // Long-lived survivors interleaved with garbage, as a launch wave leaves them.
  const kept: object[] = [];
  let garbage: object[] | null = [];
  for (let index = 0; index < 400_000; index += 1) {
    const item = { index, text: `item ${index}`, list: [index] };
    if (index % 10 === 0) kept.push(item);
    else garbage.push(item);
  }
  await sleep(50); // promoted to the old generation by now
  const before = oldSpace();
  garbage = null;
  const trim = new HeapTrim(1, 10);
  trim.launched();
  await eventually(() => oldSpace() < before / 2, { what: 'a smaller old space' });
  t.true(oldSpace() < before / 2, `old space ${before} → ${oldSpace()} bytes`);
  t.is(kept.length, 40_000);
  t.is(garbage, null);
  t.is((globalThis as { gc?: unknown }).gc, undefined);
});
