import test from 'ava';
import {
  bucketGauge,
  bucketRate,
  bucketWidth,
  MAX_BUCKETS,
} from '../../../plugins/metrics/history/buckets.js';

test('gauges: average, min, max and count per bucket; nulls skipped; empty buckets omitted', (t) => {
  const values = [
    { at: 100, value: 10 },
    { at: 105, value: 20 },
    { at: 109, value: null },
    { at: 110, value: 30 },
    { at: 140, value: 50 },
  ];
  t.deepEqual(bucketGauge(values, 10), [
    { timestamp: 100, value: 15, min: 10, max: 20, samples: 2 },
    { timestamp: 110, value: 30, min: 30, max: 30, samples: 1 },
    { timestamp: 140, value: 50, min: 50, max: 50, samples: 1 },
  ]);
});

test('rates: increase over elapsed time per bucket; a reset counts the new value', (t) => {
  // Counter 100 → 160 → 40 (reset) → 100, one reading every 10 s.
  const values = [
    { at: 0, value: 100 },
    { at: 10, value: 160 },
    { at: 20, value: 40 },
    { at: 30, value: 100 },
  ];
  t.deepEqual(bucketRate(values, 10), [
    { timestamp: 10, value: 6, min: 6, max: 6, samples: 1 },
    { timestamp: 20, value: 4, min: 4, max: 4, samples: 1 },
    { timestamp: 30, value: 6, min: 6, max: 6, samples: 1 },
  ]);
  // One 40 s bucket holding the three pairs: (60 + 40 + 60) / 30 s.
  t.deepEqual(bucketRate(values, 40), [{ timestamp: 0, value: 5.333, min: 4, max: 6, samples: 3 }]);
});

test('rates: equal timestamps and missing values give no pair', (t) => {
  const values = [
    { at: 0, value: 100 },
    { at: 0, value: 150 },
    { at: 10, value: null },
    { at: 20, value: 250 },
  ];
  t.deepEqual(bucketRate(values, 100), [{ timestamp: 0, value: 5, min: 5, max: 5, samples: 1 }]);
});

test('bucket width: requested, but never more than MAX_BUCKETS buckets', (t) => {
  t.is(bucketWidth(3600, 10), 10);
  t.is(bucketWidth(3600, undefined), Math.ceil(3600 / MAX_BUCKETS));
  t.is(bucketWidth(7 * 86_400, 1), Math.ceil((7 * 86_400) / MAX_BUCKETS));
  t.is(bucketWidth(10, undefined), 1);
});
