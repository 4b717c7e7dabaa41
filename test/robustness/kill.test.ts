/**
 * The kill test in `npm test` (fixed seed, a few kills; `npm run fuzz` does 50): config valid,
 * users intact, no orphan and no duplicate after SIGKILLs at awkward moments.
 */
import test from 'ava';
import { seedFromEnv } from './prng.js';
import { runKills } from './kill-run.js';

test('SIGKILLs during config writes, user changes and start leave no damage', async (t) => {
  const report = await runKills(seedFromEnv(), 6);
  t.log(`seed ${report.seed}: kills ${JSON.stringify(report.kills)}`);
  t.deepEqual(report.problems, []);
});
