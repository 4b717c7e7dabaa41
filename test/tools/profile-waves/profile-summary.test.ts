import test from 'ava';
import { summarizeProfile } from '../../../tools/profile-waves/profile-summary.js';

test('self time is summed per function across samples, idle left out, largest first', (t) => {
  const frame = (functionName: string, url = '', lineNumber = -1) => ({
    functionName,
    url,
    lineNumber,
  });
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(idle)') },
      { id: 2, callFrame: frame('spawn', 'node:internal/child_process', 353) },
      { id: 3, callFrame: frame('', 'file:///x/dist/plugins/a.js', 9) },
      { id: 4, callFrame: frame('spawn', 'node:internal/child_process', 353) },
    ],
    samples: [1, 2, 3, 4, 2, 1],
    timeDeltas: [5000, 1000, 3000, 1500, 500, 9000],
  };
  t.deepEqual(summarizeProfile(profile, 10), [
    { function: 'spawn node:internal/child_process:354', self_ms: 3 },
    { function: '(anonymous) plugins/a.js:10', self_ms: 3 },
  ]);
  t.is(summarizeProfile(profile, 1).length, 1);
});
