/**
 * GET /process/startup-status: the boot goes from starting_services to ready, or to degraded
 * naming the process that failed, and the dashboard's `startup_lifecycle` flag is on.
 */
import test from 'ava';
import { request } from '../../helpers/http.js';
import { eventually } from '../../helpers/eventually.js';
import { fixtureBlock, program, startSupervisor } from './support.js';

test('a boot where every process starts ends ready', async (t) => {
  const host = await startSupervisor({
    one: fixtureBlock('One', program('long-running')),
    off: { ...fixtureBlock('Off', program('long-running')), enabled: false },
  });
  t.teardown(() => host.stop());
  t.true((await request(host.url, '/api/process/capabilities')).body.startup_lifecycle);
  const status = await eventually(async () => {
    const body = (await request(host.url, '/api/process/startup-status')).body;
    return body.terminal === true ? body : undefined;
  });
  t.like(status, {
    phase: 'ready',
    expected_services: ['One'],
    services: { One: { state: 'ready' } },
    failures: {},
  });
  t.true(Date.parse(status.completed_at) >= Date.parse(status.started_at));
});

test('a boot where a process cannot start ends degraded and names it', async (t) => {
  const host = await startSupervisor({
    broken: { enabled: true, process_name: 'Broken', command: ['/nonexistent/stackd-test-binary'] },
    fine: fixtureBlock('Fine', program('long-running')),
  });
  t.teardown(() => host.stop());
  const status = await eventually(async () => {
    const body = (await request(host.url, '/api/process/startup-status')).body;
    return body.terminal === true ? body : undefined;
  });
  t.is(status.phase, 'degraded');
  t.deepEqual(status.expected_services, ['Broken', 'Fine']);
  t.is(status.services.Broken.state, 'failed');
  t.is(status.services.Fine.state, 'ready');
  t.truthy(status.failures.Broken, 'the failure says why');
  t.deepEqual(Object.keys(status.failures), ['Broken']);
});
