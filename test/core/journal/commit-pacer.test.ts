/** Group commit pacing: the next turn when quiet, the interval after a commit, one at a time. */
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { CommitPacer } from '../../../core/journal/commit-pacer.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function pacer(intervalMs: number): { pacer: CommitPacer; commits: number[] } {
  const commits: number[] = [];
  const made: CommitPacer = new CommitPacer(intervalMs, () => {
    commits.push(performance.now());
    made.cancel();
    made.committed();
  });
  return { pacer: made, commits };
}

test('a quiet pacer commits on the next turn, once for every schedule of that turn', async (t) => {
  const { pacer: paced, commits } = pacer(10_000);
  paced.schedule();
  paced.schedule();
  t.is(commits.length, 0, 'not synchronously');
  await nextTurn();
  t.is(commits.length, 1);
  await nextTurn();
  t.is(commits.length, 1);
});

test('after a commit the next waits for the interval', async (t) => {
  const { pacer: paced, commits } = pacer(150);
  paced.schedule();
  await nextTurn();
  const [first = 0] = commits;
  paced.schedule();
  await nextTurn();
  t.is(commits.length, 1, 'not on the next turn within the interval');
  await sleep(300);
  t.is(commits.length, 2);
  t.true((commits[1] ?? 0) - first >= 140, `second commit ${(commits[1] ?? 0) - first} ms later`);
  paced.cancel();
});

test('a retry is set only when no timed commit is, and cancel forgets both', async (t) => {
  const { pacer: paced, commits } = pacer(10_000);
  paced.retryAfter(40);
  paced.retryAfter(5_000);
  await sleep(120);
  t.is(commits.length, 1, 'the first retry ran, the second was not set beside it');
  paced.retryAfter(40);
  paced.cancel();
  paced.schedule();
  paced.cancel();
  await sleep(120);
  t.is(commits.length, 1);
});
