/** GET /health's report: synchronous when every check is, a timer only for pending checks. */
import test from 'ava';
import { HealthRegistry } from '../../../core/runtime/health-registry.js';

test('synchronous checks give a synchronous report', (t) => {
  const registry = new HealthRegistry();
  registry.add('host', 'storage', () => ({ healthy: true }));
  registry.add('supervisor', 'processes', () => ({ healthy: true }));
  const report = registry.report();
  t.false(report instanceof Promise);
  t.deepEqual(report, { status: 'healthy' });
});

test('one pending check makes the report a promise; failures are collected sorted on one line', async (t) => {
  const registry = new HealthRegistry();
  registry.add('zeta', 'sync', () => ({ healthy: false, details: 'late\nline' }));
  registry.add('alpha', 'async', () => Promise.resolve({ healthy: false, details: 'down' }));
  registry.add('beta', 'throws', () => {
    throw new Error('boom');
  });
  const report = registry.report();
  t.true(report instanceof Promise);
  t.deepEqual(await report, {
    status: 'unhealthy',
    details: 'alpha/async: down | beta/throws: boom | zeta/sync: late line',
  });
});
