import test from 'ava';
import { compareLabels, compareText } from '../../sdk/index.js';

test('compareText is code-unit order, the order of sort() without a comparator', (t) => {
  const words = ['b', 'B', 'a', 'é', 'e', 'A', '', 'ab', 'Zurg', 'zilean', '10', '9'];
  t.deepEqual([...words].sort(compareText), [...words].sort());
  t.is(compareText('same', 'same'), 0);
});

test('compareLabels ignores case first and stays stable between labels that differ only in case', (t) => {
  const labels = ['zilean', 'Zurg', 'Plex', 'decypharr', 'plex', 'Decypharr'];
  t.deepEqual([...labels].sort(compareLabels), [
    'Decypharr',
    'decypharr',
    'Plex',
    'plex',
    'zilean',
    'Zurg',
  ]);
  t.deepEqual([...labels].reverse().sort(compareLabels), [...labels].sort(compareLabels));
});
