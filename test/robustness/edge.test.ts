/** The fuzz run's proxy-token and request-smuggling cases, in `npm test` too. */
import test from 'ava';
import { runEdgeCases } from './edge-run.js';

test('stackd tokens never reach a proxied service; smuggling attempts are refused and closed', async (t) => {
  t.deepEqual(await runEdgeCases(), []);
});
