/** The scan workers' wait meter, on this thread: sleeping reads as sleep, working does not. */
import test from 'ava';
import {
  threadFigures,
  TwoInARow,
  WaitMeter,
} from '../../../../plugins/symlinks/scan/wait-meter.js';

const linux = process.platform === 'linux';

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function spinMs(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // on a CPU (or queued for one) the whole time
  }
}

test('on Linux the thread figures are read, and the meter exists', (t) => {
  if (!linux) {
    t.is(WaitMeter.create(), null, 'no figures elsewhere: the scan adds workers as it always did');
    return;
  }
  const figures = threadFigures();
  t.true((figures?.runnableMs ?? 0) > 0);
  t.true((figures?.readBytes ?? -1) >= 0);
  t.not(WaitMeter.create(), null);
});

test('a stretch spent asleep reads as slept, one spent working does not; nothing is read before the minimum', (t) => {
  const meter = WaitMeter.create();
  if (meter === null) {
    t.pass('no thread figures on this platform');
    return;
  }
  meter.begin();
  sleepMs(150);
  meter.end();
  t.is(meter.read(400), null, 'under the minimum: no reading yet');
  const slept = meter.read(100);
  t.true((slept?.sleptShare ?? 0) > 0.8, `slept share ${String(slept?.sleptShare)}`);
  t.true((slept?.wallMs ?? 0) >= 150);
  meter.begin();
  spinMs(150);
  const worked = meter.read(100);
  t.true((worked?.sleptShare ?? 1) < 0.25, `worked share ${String(worked?.sleptShare)}`);
  t.is(worked?.readBytesPerSec, 0, 'a loop reads nothing from storage');
  spinMs(120);
  const next = meter.read(100);
  t.true((next?.wallMs ?? 0) >= 100, 'the stretch under way went on after the reading');
  meter.end();
  sleepMs(400); // between stretches: not measured
  meter.begin();
  spinMs(120);
  meter.end();
  const last = meter.read(100);
  // 120 ms measured, with room for a loaded machine; with the 400 ms between, it would be 520.
  t.true(
    (last?.wallMs ?? 400) < 400,
    `the time between stretches is left out (${String(last?.wallMs)})`,
  );
  t.true((last?.sleptShare ?? 1) < 0.25, `share ${String(last?.sleptShare)}`);
});

test('a worker reads as waiting only on the second waiting reading in a row', (t) => {
  const judge = new TwoInARow();
  const answers = [true, false, true, true, true, false, true, false, false, true, true].map(
    (waited) => judge.next(waited),
  );
  t.deepEqual(answers, [false, false, false, true, true, false, false, false, false, false, true]);
});
