/**
 * A plugin in a folder outside the repository, with no node_modules of its own, importing
 * `stackd/sdk`: it gets the running host's sdk, `+` adds it beside the built-ins, and one that
 * does not parse is reported with its file, line and column. The sdk it gets is the very
 * instance the host runs on (the host runs bundled; handing the plugin another copy of the sdk
 * would break the host's `instanceof` checks on the plugin's errors).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { request } from '../../helpers/http.js';
import { startHost, tempDir } from '../../helpers/start-host.js';

const GREETER = `import { definePlugin, Type } from 'stackd/sdk';
export default definePlugin({
  name: 'greeter',
  version: '1.0.0',
  apiVersion: 1,
  register(ctx) {
    ctx.route({
      method: 'GET',
      path: '/greeter/hello',
      summary: 'Say hello',
      schema: { response: Type.Object({ text: Type.String() }) },
      handler: () => ({ text: 'hello from outside' }),
    });
  },
});
`;

function pluginFolder(source: string, file = 'greeter.js'): string {
  const dir = tempDir('stackd-outside-plugin-');
  writeFileSync(join(dir, file), source);
  return dir;
}

test('a plugin outside the repo imports stackd/sdk and sits beside the built-ins with +', async (t) => {
  const dir = pluginFolder(GREETER);
  const host = await startHost({ cwd: dir, plugins: ['+./greeter.js'] });
  try {
    const hello = await request(host.url, '/greeter/hello');
    t.is(hello.status, 200);
    t.deepEqual(hello.body, { text: 'hello from outside' });
    const home = await request(host.url, '/');
    t.regex(home.text, /<li>greeter 1\.0\.0<\/li>/);
    t.regex(home.text, /<li>supervisor /);
  } finally {
    await host.stop();
  }
});

test('STACKD_PLUGINS with + adds too', async (t) => {
  const dir = pluginFolder(GREETER);
  const host = await startHost({
    cwd: dir,
    env: { STACKD_PLUGINS: `+${join(dir, 'greeter.js')}` },
  });
  try {
    t.is((await request(host.url, '/greeter/hello')).status, 200);
    t.regex((await request(host.url, '/')).text, /<li>auth /);
  } finally {
    await host.stop();
  }
});

test("a plugin's PluginConfigError is the host's class: one sdk instance, not a copy", async (t) => {
  // The host tells a config error from any other failure of register() by `instanceof` on its
  // own PluginConfigError: a plugin given a second copy of the sdk would throw an instance of the
  // copy's class, and the boot would fail as STACKD_REGISTER_FAILED instead.
  const dir = pluginFolder(`import { definePlugin, PluginConfigError } from 'stackd/sdk';
export default definePlugin({
  name: 'picky',
  version: '1.0.0',
  apiVersion: 1,
  register() {
    throw new PluginConfigError('stackd.picky.mode', 'contradicts stackd.picky.level');
  },
});
`);
  const error = await t.throwsAsync(startHost({ cwd: dir, plugins: ['./greeter.js'] }));
  t.regex(
    error?.message ?? '',
    /STACKD_CONFIG_INVALID: .*stackd\.picky\.mode: contradicts stackd\.picky\.level/,
  );
});

test('a plugin that does not parse is reported with its file, line and column', async (t) => {
  const dir = pluginFolder(
    "import { definePlugin } from 'stackd/sdk';\nexport default definePlugin({\n  name: 'broken',\n  version 1,\n});\n",
    'broken.js',
  );
  const error = await t.throwsAsync(startHost({ cwd: dir, plugins: ['./broken.js'] }));
  t.regex(
    error?.message ?? '',
    new RegExp(
      `STACKD_PLUGIN_INVALID: plugin '\\./broken\\.js' does not parse: ${join(dir, 'broken.js').replaceAll('.', '\\.')}:4:11: SyntaxError: `,
    ),
  );
  t.notRegex(error?.message ?? '', /STACKD_PLUGIN_NOT_FOUND/);
});
