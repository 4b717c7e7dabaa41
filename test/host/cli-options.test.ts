import test from 'ava';
import { parseCliOptions } from '../../host/cli-options.js';

test('options override the environment, which overrides defaults', (t) => {
  const options = parseCliOptions(['--port', '0', '--plugins=a, b'], {
    STACKD_PORT: '9000',
    STACKD_HOST: '0.0.0.0',
    STACKD_DATA_DIR: '/var/lib/stackd',
  });
  t.is(options.port, 0);
  t.is(options.host, '0.0.0.0');
  t.is(options.dataDir, '/var/lib/stackd');
  t.deepEqual(options.plugins, ['a', 'b']);
  t.is(options.configPath, undefined);
});

test('defaults follow CONTRACT.md', (t) => {
  const options = parseCliOptions([], {});
  t.is(options.dataDir, './data');
  t.is(options.port, undefined, 'api_service.port, else 8000, decided at boot');
  t.is(options.plugins, undefined, 'all built-in plugins');
});

test('bad input is refused with a message', (t) => {
  t.throws(() => parseCliOptions(['--port', '70000'], {}), { message: /invalid port/ });
  t.throws(() => parseCliOptions(['--what'], {}), { message: /unknown option/ });
  t.throws(() => parseCliOptions(['--config'], {}), { message: /needs a value/ });
});
