/** Third-party plugins: loaded by path and by package name, checked, collisions named, failures abort boot. */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { brokenPlugin, HELLO_PLUGIN_DIR } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { startHost, tempDir } from '../../helpers/start-host.js';

test('a plugin loaded by path serves its route, flag and OpenAPI tag', async (t) => {
  const host = await startHost({ plugins: [HELLO_PLUGIN_DIR] });
  try {
    t.is((await request(host.url, '/hello/echo', { body: { name: 'pat' } })).status, 200);
    const capabilities = (await request(host.url, '/process/capabilities')).body;
    t.true(capabilities.hello_world);
    t.false(capabilities.symlink_repair);
    const openapi = (await request(host.url, '/openapi.json')).body;
    t.true(openapi.tags.some((tag: { name: string }) => tag.name === 'hello'));
    t.deepEqual(openapi.paths['/hello/echo'].post.tags, ['hello']);
  } finally {
    await host.stop();
  }
});

test('a plugin loaded by npm package name resolves from the working directory', async (t) => {
  const cwd = tempDir('stackd-cwd-');
  mkdirSync(join(cwd, 'node_modules'));
  symlinkSync(HELLO_PLUGIN_DIR, join(cwd, 'node_modules', 'stackd-plugin-hello'), 'dir');
  const host = await startHost({ plugins: ['stackd-plugin-hello'], cwd });
  try {
    t.is(
      (await request(host.url, '/hello/echo', { body: { name: 'npm' } })).body.text,
      'hello npm',
    );
  } finally {
    await host.stop();
  }
});

test('STACKD_PLUGINS selects plugins like --plugins', async (t) => {
  const host = await startHost({ env: { STACKD_PLUGINS: HELLO_PLUGIN_DIR } });
  try {
    t.true((await request(host.url, '/process/capabilities')).body.hello_world);
  } finally {
    await host.stop();
  }
});

test('the plugin config slice is validated and defaulted', async (t) => {
  const host = await startHost({
    plugins: [HELLO_PLUGIN_DIR],
    config: { stackd: { hello: { greeting: 'howdy' } } },
  });
  try {
    t.is(
      (await request(host.url, '/hello/echo', { body: { name: 'cfg' } })).body.text,
      'howdy cfg',
    );
  } finally {
    await host.stop();
  }
  const error = await t.throwsAsync(
    startHost({ plugins: [HELLO_PLUGIN_DIR], config: { stackd: { hello: { greeting: 42 } } } }),
  );
  t.regex(error.message, /STACKD_CONFIG_INVALID: .*plugin 'hello' at 'stackd\.hello\.greeting'/);
});

const refusals: Array<[string, string[], RegExp]> = [
  [
    'a module without the plugin brand',
    [brokenPlugin('not-a-plugin')],
    /STACKD_PLUGIN_INVALID: .*does not default-export a plugin/,
  ],
  [
    'a plugin for another API version',
    [brokenPlugin('future-api')],
    /STACKD_PLUGIN_INCOMPATIBLE: plugin 'future' targets sdk API version 99/,
  ],
  [
    'a plugin built for another sdk range',
    [brokenPlugin('future-sdk')],
    /STACKD_PLUGIN_INCOMPATIBLE: plugin 'future-sdk' was built for sdk \^9\.0\.0; this host provides sdk 1\.2\.0/,
  ],
  [
    'a register() that throws',
    [brokenPlugin('throws-register')],
    /STACKD_REGISTER_FAILED: plugin 'explodes-early' failed to register: register blew up on purpose/,
  ],
  [
    'an onStart that rejects',
    [brokenPlugin('throws-start')],
    /STACKD_START_FAILED: plugin 'explodes-late' failed to start: start blew up on purpose/,
  ],
  [
    'a route collision',
    [HELLO_PLUGIN_DIR, brokenPlugin('route-thief')],
    /STACKD_ROUTE_DUPLICATE: route POST \/hello\/echo of plugin 'route-thief' collides with POST \/hello\/echo of plugin 'hello'/,
  ],
  [
    'a capability collision',
    [HELLO_PLUGIN_DIR, brokenPlugin('flag-thief')],
    /STACKD_CAPABILITY_DUPLICATE: capability 'hello_world' is declared by both plugin 'hello' and plugin 'flag-thief'/,
  ],
  [
    'a name collision',
    [HELLO_PLUGIN_DIR, HELLO_PLUGIN_DIR],
    /STACKD_PLUGIN_DUPLICATE: plugin name 'hello' is used by both/,
  ],
  [
    'a missing dependency',
    [brokenPlugin('needs-missing')],
    /STACKD_DEPENDENCY_MISSING: plugin 'needy' depends on 'does-not-exist', which is not loaded/,
  ],
  [
    'a path that does not exist',
    ['./no/such/plugin.js'],
    /STACKD_PLUGIN_NOT_FOUND: cannot load plugin '\.\/no\/such\/plugin\.js'/,
  ],
  [
    'a package that is not installed',
    ['stackd-plugin-nowhere'],
    /STACKD_PLUGIN_NOT_FOUND: .*package 'stackd-plugin-nowhere' is not installed/,
  ],
];

for (const [what, plugins, message] of refusals) {
  test(`boot is aborted with a clear message for ${what}`, async (t) => {
    const error = await t.throwsAsync(startHost({ plugins }));
    t.regex(error.message, /host exited with 1 before listening/);
    t.regex(error.message, message);
  });
}
