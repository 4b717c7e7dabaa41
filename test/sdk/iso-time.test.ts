import test from 'ava';
import { isoSeconds, isoTime } from '../../sdk/iso-time.js';

test('isoTime writes what toISOString writes, across eras and milliseconds', (t) => {
  const samples = [
    0,
    1,
    -1,
    Date.UTC(2026, 10, 26, 2, 51, 11, 681),
    Date.UTC(2026, 0, 1, 0, 0, 0, 7),
    Date.UTC(1999, 11, 31, 23, 59, 59, 999),
    Date.UTC(2024, 1, 29, 12, 0, 0, 50),
    Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    Date.UTC(10000, 0, 1),
    Date.UTC(-1, 0, 1),
    Date.UTC(0, 0, 1),
    new Date('0099-05-06T07:08:09.010Z').getTime(),
    8.64e15,
    -8.64e15,
  ];
  // A spread of times over 1900–2100 with every millisecond value somewhere in it.
  for (let index = 0; index < 2000; index += 1)
    samples.push(Date.UTC(1900, 0, 1) + index * 3_155_695_200 + (index % 1000));
  for (const ms of samples) t.is(isoTime(ms), new Date(ms).toISOString(), String(ms));
});

test('isoTime takes a Date, and defaults to now', (t) => {
  const date = new Date(Date.UTC(2026, 10, 26, 3, 4, 5, 60));
  t.is(isoTime(date), '2026-11-26T03:04:05.060Z');
  const before = Date.now();
  const now = Date.parse(isoTime());
  t.true(now >= before && now <= Date.now());
});

test('isoTime refuses an invalid time, as toISOString does', (t) => {
  t.throws(() => isoTime(Number.NaN), { instanceOf: RangeError });
  t.throws(() => isoTime(new Date('not a date')), { instanceOf: RangeError });
  t.throws(() => isoTime(8.64e15 + 1), { instanceOf: RangeError });
});

test('isoSeconds is the same text to the second, without the fraction', (t) => {
  for (const ms of [0, Date.UTC(2026, 10, 26, 3, 4, 5, 999), Date.UTC(10000, 0, 1, 0, 0, 1)])
    t.is(isoSeconds(ms), new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  t.is(isoSeconds(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6))), '2026-01-02T03:04:05Z');
  t.throws(() => isoSeconds(Number.NaN), { instanceOf: RangeError });
});
