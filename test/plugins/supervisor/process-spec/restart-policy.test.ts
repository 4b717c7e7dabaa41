import test from 'ava';
import {
  backoffDelayMs,
  RestartTracker,
  type RestartPolicy,
} from '../../../../plugins/supervisor/process-spec/restart-policy.js';

const policy: RestartPolicy = {
  baseSec: 1,
  factor: 2,
  maxSec: 60,
  resetAfterSec: 30,
  maxRestarts: 5,
  windowSec: 300,
};

test('backoff doubles from the base and stops at the cap', (t) => {
  t.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 7].map((attempt) => backoffDelayMs(policy, attempt)),
    [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000],
  );
});

test('quick crashes back off further each time; a stable run starts over from the base', (t) => {
  const tracker = new RestartTracker({ ...policy, maxRestarts: 100 });
  let now = 1_000_000;
  const delays = [1, 2, 3].map(() => {
    now += 1000;
    const decision = tracker.decide(500, now);
    return decision.action === 'restart' ? decision.delayMs : -1;
  });
  t.deepEqual(delays, [1000, 2000, 4000]);
  const afterStable = tracker.decide(30_000, (now += 60_000));
  t.deepEqual(afterStable, { action: 'restart', delayMs: 1000, attempt: 1 });
});

test('more than max_restarts within the window gives up; the window slides', (t) => {
  const tracker = new RestartTracker({ ...policy, maxRestarts: 2, windowSec: 100 });
  t.is(tracker.decide(0, 0).action, 'restart');
  t.is(tracker.decide(0, 10_000).action, 'restart');
  t.deepEqual(tracker.decide(0, 20_000), {
    action: 'give-up',
    reason: 'gave up after 2 restarts within 100 s',
  });
  // 100 s after the first restart it has left the window: one more is allowed.
  t.is(tracker.decide(0, 100_001).action, 'restart');
});

test('reset forgets the history (a manual start)', (t) => {
  const tracker = new RestartTracker({ ...policy, maxRestarts: 1 });
  t.is(tracker.decide(0, 0).action, 'restart');
  t.is(tracker.decide(0, 1).action, 'give-up');
  tracker.reset();
  t.deepEqual(tracker.decide(0, 2), { action: 'restart', delayMs: 1000, attempt: 1 });
});

test('max_restarts 0 never restarts', (t) => {
  t.is(new RestartTracker({ ...policy, maxRestarts: 0 }).decide(0, 0).action, 'give-up');
});
