/**
 * GET/POST /process/runtime-log-level: a temporary DEBUG override of stackd's own log, off again
 * on request, never written to the configuration.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { startHost } from '../../helpers/start-host.js';
import { request } from '../../helpers/http.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';

test('DEBUG can be turned on and off at runtime', async (t) => {
  const host = await startHost({
    plugins: [builtinPlugin('supervisor')],
    config: {
      stackd: { api_service: { enabled: true, process_name: 'stackd API', log_level: 'WARNING' } },
      idle: { enabled: false, process_name: 'Idle', command: ['true'] },
    },
  });
  t.teardown(() => host.stop());
  t.true((await request(host.url, '/api/process/capabilities')).body.runtime_api_log_level);
  t.deepEqual((await request(host.url, '/api/process/runtime-log-level')).body, {
    configured_level: 'WARNING',
    effective_level: 'WARNING',
    debug_enabled: false,
    override_active: false,
    resets_on_restart: true,
  });
  const configBefore = readFileSync(host.configPath as string, 'utf8');

  const on = await request(host.url, '/api/process/runtime-log-level', {
    body: { debug_enabled: true },
  });
  t.like(on.body, {
    configured_level: 'WARNING',
    effective_level: 'DEBUG',
    debug_enabled: true,
    override_active: true,
  });
  // A debug record now reaches the host's output (a block change is logged at debug).
  t.false(/block of Idle changed/.test(host.output()));
  const change = { process_name: 'Idle', updates: { command: ['true', 'again'] } };
  t.is((await request(host.url, '/api/config', { body: change })).status, 200);
  await eventually(() => (/DEBUG.*block of Idle changed/.test(host.output()) ? true : undefined));

  const before = host.output().length;
  const off = await request(host.url, '/api/process/runtime-log-level', {
    body: { debug_enabled: false },
  });
  t.like(off.body, { effective_level: 'WARNING', debug_enabled: false, override_active: false });
  await request(host.url, '/api/config', { body: { ...change, updates: { command: ['true'] } } });
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.false(/block of Idle changed/.test(host.output().slice(before)), 'debug is off again');
  t.is(
    readFileSync(host.configPath as string, 'utf8'),
    configBefore,
    'nothing is written to the file',
  );

  const bad = await request(host.url, '/api/process/runtime-log-level', {
    body: { debug_enabled: 'yes' },
  });
  t.is(bad.status, 422);
  t.is(bad.body.field, 'debug_enabled');
});
