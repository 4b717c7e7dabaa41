import test from 'ava';
import { figure, markdownTable } from '../../bench/lib/report.js';
import { median, percentile, ratio, round, summarize } from '../../bench/lib/stats.js';

const hundred = Array.from({ length: 100 }, (_, index) => 100 - index); // 100 … 1, unsorted

test('percentile is nearest-rank on a sorted copy and leaves the input alone', (t) => {
  const input = [...hundred];
  t.is(percentile(input, 50), 50);
  t.is(percentile(input, 99), 99);
  t.is(percentile(input, 100), 100);
  t.is(percentile(input, 0), 1);
  t.is(percentile([7, 3, 5], 50), 5);
  t.is(percentile([7, 3, 5], 99), 7);
  t.deepEqual(input, hundred);
});

test('percentile and median of nothing are NaN', (t) => {
  t.true(Number.isNaN(percentile([], 50)));
  t.true(Number.isNaN(median([])));
});

test('median takes the middle value, or the mean of the two middle values', (t) => {
  t.is(median([3, 1, 2]), 2);
  t.is(median([4, 1, 3, 2]), 2.5);
  t.is(median([5]), 5);
});

test('summarize gives count, p50, p99 and max rounded to 0.01', (t) => {
  t.deepEqual(summarize([1.234, 2.345, 3.456]), { count: 3, p50: 2.35, p99: 3.46, max: 3.46 });
  t.deepEqual(summarize(hundred), { count: 100, p50: 50, p99: 99, max: 100 });
});

test('ratio rounds to 0.01 and is NaN for a zero or missing denominator', (t) => {
  t.is(ratio(2, 3), 0.67);
  t.is(ratio(3, 2), 1.5);
  t.true(Number.isNaN(ratio(1, 0)));
  t.true(Number.isNaN(ratio(Number.NaN, 2)));
  t.is(round(1.23456, 3), 1.235);
});

test('figures are judged against their goal; NaN never passes', (t) => {
  t.true(figure('a', 'x', 0.8, '×', { goal: { op: '>=', limit: 0.8 } }).pass);
  t.false(figure('a', 'x', 5, 'ms', { goal: { op: '<', limit: 5 } }).pass);
  t.true(figure('a', 'x', 5, 'ms', { goal: { op: '<=', limit: 5 } }).pass);
  t.false(figure('a', 'x', Number.NaN, 'ms', { goal: { op: '<=', limit: 5 } }).pass);
  t.is(figure('a', 'x', 1, 'ms').pass, undefined);
});

test('the table has a header, a rule and one aligned row per figure', (t) => {
  const table = markdownTable([
    figure('HTTP', 'stackd req/s', 12345, 'req/s'),
    figure('HTTP', 'stackd / floor', 0.5, '×', { goal: { op: '>=', limit: 0.8 } }),
  ]);
  const lines = table.split('\n');
  t.is(lines.length, 4);
  t.regex(lines[2] ?? '', /\| 12,345 req\/s /);
  t.regex(lines[3] ?? '', /\| 0\.5× +\| >= 0\.8× \| \*\*short\*\* \|/);
  t.is(new Set(lines.map((line) => line.length)).size, 1);
});
