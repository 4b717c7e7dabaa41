/** Collectors run on shared timers, and only while someone consumes the snapshots. */
import test from 'ava';
import { LogSink, ScopedLogger } from '../../../core/logging/logger.js';
import { MetricsRegistry } from '../../../core/metrics/metrics-registry.js';
import { eventually } from '../../helpers/eventually.js';

const logger = new ScopedLogger(new LogSink('error', () => undefined), 'test');

function counting(registry: MetricsRegistry, name: string): { calls: () => number } {
  let calls = 0;
  registry.add('test', { name, intervalMs: 100, collect: () => ({ n: ++calls }) });
  return { calls: () => calls };
}

test('nothing is collected until someone subscribes, and collection stops with the last one', async (t) => {
  const registry = new MetricsRegistry(logger);
  const a = counting(registry, 'a');
  registry.start();
  t.teardown(() => registry.stop());
  const idleSince = Date.now();
  await eventually(() => Date.now() - idleSince > 350, { what: 'three idle intervals' });
  t.is(a.calls(), 0, 'no consumer, no sampling');

  const seen: number[] = [];
  const unsubscribe = registry.subscribe((snapshot) =>
    seen.push((snapshot.collectors.a as { n: number }).n),
  );
  await eventually(() => seen.length >= 2, { what: 'two snapshots' });
  t.deepEqual(seen.slice(0, 2), [1, 2]);
  t.is(registry.latest()?.collectors.a?.n, seen.at(-1));

  unsubscribe();
  const stoppedAt = a.calls();
  const quietSince = Date.now();
  await eventually(() => Date.now() - quietSince > 350, {
    what: 'three intervals after unsubscribing',
  });
  t.true(a.calls() <= stoppedAt + 1, 'at most the tick in flight completes');
});

test('collection runs as often as the most demanding subscriber needs, not faster', async (t) => {
  const registry = new MetricsRegistry(logger);
  const a = counting(registry, 'a');
  registry.start();
  t.teardown(() => registry.stop());
  const slow = registry.subscribe(() => undefined, { everyMs: 1000 });
  const since = Date.now();
  await eventually(() => Date.now() - since > 1500, { what: 'a second and a half' });
  // A 100 ms collector under a 1 s demand: the tick at subscribe, then one a second.
  t.true(a.calls() <= 3, `${a.calls()} collections`);

  const fast = registry.subscribe(() => undefined, { everyMs: 100 });
  const before = a.calls();
  await eventually(() => a.calls() >= before + 5, { what: 'full pace for the fast one' });
  fast();
  const after = a.calls();
  const quiet = Date.now();
  await eventually(() => Date.now() - quiet > 700, { what: 'back to the slow pace' });
  t.true(a.calls() <= after + 2, `${a.calls() - after} collections after the fast one left`);
  slow();
});

test('a collector without an interval of its own follows the consumers pace', async (t) => {
  const registry = new MetricsRegistry(logger);
  let calls = 0;
  registry.add('test', { name: 'follower', collect: () => ({ n: ++calls }) });
  registry.start();
  t.teardown(() => registry.stop());
  const unsubscribe = registry.subscribe(() => undefined, { everyMs: 250 });
  const since = Date.now();
  await eventually(() => Date.now() - since > 1100, { what: 'a second' });
  unsubscribe();
  // At 250 ms: the tick at subscribe and about four more; the 2 s default would give one.
  t.true(calls >= 3 && calls <= 7, `${calls} collections`);
});

test('collector names are unique across plugins', (t) => {
  const registry = new MetricsRegistry(logger);
  registry.add('one', { name: 'system', collect: () => ({}) });
  t.throws(() => registry.add('two', { name: 'system', collect: () => ({}) }), {
    message: "metrics collector 'system' is declared by both plugin 'one' and plugin 'two'",
  });
});
