import test from 'ava';
import { cpuPreciseMs } from '../../bench/lib/proc-sample.js';
import { routesOf } from '../../bench/scale/api-calls.js';

test('cpuPreciseMs counts the busy time of every thread of a process', (t) => {
  const before = cpuPreciseMs(process.pid);
  const usageBefore = process.cpuUsage();
  const until = performance.now() + 200;
  while (performance.now() < until) Math.sqrt(Math.random());
  const spent = cpuPreciseMs(process.pid) - before;
  const usage = process.cpuUsage(usageBefore);
  const expected = (usage.user + usage.system) / 1000;
  t.true(spent > 0);
  // Both read the scheduler's own count; they differ only by what ran between the reads.
  t.true(Math.abs(spent - expected) < Math.max(20, expected * 0.2), `${spent} vs ${expected}`);
});

test('cpuPreciseMs is 0 for a process that is gone', (t) => {
  t.is(cpuPreciseMs(2 ** 22 + 12_345), 0);
});

test('routesOf calls GET routes without path parameters and fills process_name', (t) => {
  const { routes, skipped } = routesOf(
    {
      paths: {
        '/health': { get: {} },
        '/process': {
          get: { parameters: [{ name: 'process_name', in: 'query', required: true }] },
        },
        '/process/processes': { get: { parameters: [{ name: 'x', in: 'query' }] } },
        '/config/history/{version}': { get: {} },
        '/ws/logs': { get: {} },
        '/metrics/series': {
          get: { parameters: [{ name: 'metric', in: 'query', required: true }] },
        },
        '/config/save': {},
      },
    },
    'Bench 0',
  );
  t.deepEqual(routes, ['/health', '/process?process_name=Bench%200', '/process/processes']);
  t.deepEqual(skipped, [
    '/config/history/{version}: path parameter',
    '/ws/logs: a WebSocket',
    '/metrics/series: required metric',
  ]);
});
