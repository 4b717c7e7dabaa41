import test from 'ava';
import { RateLimiter } from '../../../../plugins/auth/login-throttle/rate-limiter.js';
import { ManualClock } from '../auth-harness.js';

function limiter(clock: ManualClock, maxKeys?: number) {
  return new RateLimiter({
    windowMs: 60_000,
    lockoutBaseMs: 1_000,
    lockoutMaxMs: 8_000,
    now: clock.now,
    ...(maxKeys === undefined ? {} : { maxKeys }),
  });
}
const user = { key: 'user:alice', policy: { maxFailures: 3 } };
const address = { key: 'address:10.0.0.1', policy: { maxFailures: 5 } };

test('a key locks when it reaches its limit and unlocks after the lockout', (t) => {
  const clock = new ManualClock();
  const rl = limiter(clock);
  t.deepEqual(rl.recordFailure([user]), []);
  t.deepEqual(rl.recordFailure([user]), []);
  t.deepEqual(rl.check([user]), { allowed: true });
  t.deepEqual(rl.recordFailure([user, address]), [{ key: 'user:alice', lockoutMs: 1_000 }]);
  t.deepEqual(rl.check([user]), { allowed: false, retryAfterMs: 1_000 });
  clock.advance(400);
  t.deepEqual(rl.check([user]), { allowed: false, retryAfterMs: 600 });
  clock.advance(600);
  t.deepEqual(rl.check([user]), { allowed: true });
});

test('every further failure doubles the lockout, up to the cap', (t) => {
  const clock = new ManualClock();
  const rl = limiter(clock);
  const lockouts: number[] = [];
  for (let attempt = 0; attempt < 8; attempt += 1) {
    rl.recordFailure([user]);
    const decision = rl.check([user]);
    lockouts.push(decision.allowed ? 0 : decision.retryAfterMs);
    clock.advance(decision.allowed ? 0 : decision.retryAfterMs);
  }
  t.deepEqual(lockouts, [0, 0, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
});

test('the longest lock of the checked keys wins; other keys are untouched', (t) => {
  const clock = new ManualClock();
  const rl = limiter(clock);
  for (let index = 0; index < 5; index += 1)
    rl.recordFailure([{ key: `user:u${index}`, policy: user.policy }, address]);
  const fresh = { key: 'user:bob', policy: user.policy };
  t.deepEqual(rl.check([fresh, address]), { allowed: false, retryAfterMs: 1_000 });
  t.deepEqual(rl.check([fresh]), { allowed: true });
});

test('failures are forgotten a window after the last one; reset forgets at once', (t) => {
  const clock = new ManualClock();
  const rl = limiter(clock);
  rl.recordFailure([user]);
  rl.recordFailure([user]);
  clock.advance(60_001);
  rl.recordFailure([user]);
  t.deepEqual(rl.check([user]), { allowed: true });
  rl.recordFailure([user]);
  rl.recordFailure([user]);
  t.false(rl.check([user]).allowed);
  rl.reset(user.key);
  t.deepEqual(rl.check([user]), { allowed: true });
});

test('memory stays bounded: the oldest keys are dropped', (t) => {
  const clock = new ManualClock();
  const rl = limiter(clock, 100);
  for (let index = 0; index < 1_000; index += 1)
    rl.recordFailure([{ key: `user:${index}`, policy: user.policy }]);
  t.is(rl.size, 100);
});
