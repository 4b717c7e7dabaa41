import test from 'ava';
import { readFile } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TurnBudget } from '../../sdk/index.js';

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

test('a budget is spent once its time is used, and starts again after next()', async (t) => {
  const turn = new TurnBudget(5);
  t.false(turn.spent());
  busy(6);
  t.true(turn.spent());
  await turn.next();
  t.false(turn.spent());
});

test('next() from an I/O callback lets the due timers run before the work goes on', async (t) => {
  const order: string[] = await new Promise((resolve) => {
    readFile(fileURLToPath(import.meta.url), () => {
      const seen: string[] = [];
      const turn = new TurnBudget(0);
      setTimeout(() => seen.push('timer'), 0);
      // The timer is due once 1 ms has passed; a single immediate would still run before it.
      busy(2);
      void turn.next().then(() => {
        seen.push('resumed');
        resolve(seen);
      });
    });
  });
  t.deepEqual(order, ['timer', 'resumed']);
});
