import test from 'ava';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPlugins } from '../../../core/plugins/plugin-loader.js';
import { bootErrorCode } from '../../../core/errors/boot-error.js';
import { definePlugin } from '../../../sdk/plugin.js';

const plugin = (name: string, extra: Record<string, unknown> = {}) =>
  definePlugin({ name, version: '1.0.0', apiVersion: 1, register: () => undefined, ...extra });

async function codeOf(run: Promise<unknown>): Promise<string | undefined> {
  try {
    await run;
    return undefined;
  } catch (error) {
    return bootErrorCode(error);
  }
}

test('built-in plugins load from the map, in the order asked', async (t) => {
  const loaded = await loadPlugins(
    ['b', 'a'],
    { a: () => Promise.resolve(plugin('a')), b: () => Promise.resolve({ default: plugin('b') }) },
    process.cwd(),
  );
  t.deepEqual(
    loaded.map((entry) => [entry.plugin.name, entry.builtin]),
    [
      ['b', true],
      ['a', true],
    ],
  );
});

test('a built-in given by the path of its entry loads through the map, not a second import', async (t) => {
  // dist/plugins/<name>/index.js and its folder, as tests and benches pass them.
  const folder = fileURLToPath(new URL('../../../plugins/metrics/', import.meta.url));
  let calls = 0;
  const builtins = {
    metrics: () => {
      calls += 1;
      return Promise.resolve(plugin('from-map'));
    },
  };
  const loaded = await loadPlugins([join(folder, 'index.js'), folder], builtins, '/').catch(
    (error: unknown) => error,
  );
  // Both specs name the same built-in: the second is refused as a duplicate of the first.
  t.is(bootErrorCode(loaded), 'STACKD_PLUGIN_DUPLICATE');
  const [one] = await loadPlugins([join(folder, 'index.js')], builtins, '/');
  t.is(one?.plugin.name, 'from-map');
  t.is(one?.source, join(folder, 'index.js'));
  t.is(calls, 3);
});

test('every refusal carries its stable code', async (t) => {
  const builtins = {
    plain: () => Promise.resolve({ default: { name: 'plain' } }),
    caps: () => Promise.resolve(plugin('Bad Name')),
    future: () => Promise.resolve(plugin('future', { apiVersion: 2 })),
    range: () => Promise.resolve(plugin('range', { sdk: '>=2' })),
    badrange: () => Promise.resolve(plugin('badrange', { sdk: 'not a range' })),
    twin: () => Promise.resolve(plugin('twin')),
  };
  const cwd = process.cwd();
  t.is(await codeOf(loadPlugins(['plain'], builtins, cwd)), 'STACKD_PLUGIN_INVALID');
  t.is(await codeOf(loadPlugins(['caps'], builtins, cwd)), 'STACKD_PLUGIN_INVALID');
  t.is(await codeOf(loadPlugins(['future'], builtins, cwd)), 'STACKD_PLUGIN_INCOMPATIBLE');
  t.is(await codeOf(loadPlugins(['range'], builtins, cwd)), 'STACKD_PLUGIN_INCOMPATIBLE');
  t.is(await codeOf(loadPlugins(['badrange'], builtins, cwd)), 'STACKD_PLUGIN_INVALID');
  t.is(await codeOf(loadPlugins(['twin', 'twin'], builtins, cwd)), 'STACKD_PLUGIN_DUPLICATE');
  t.is(await codeOf(loadPlugins(['./nowhere.js'], builtins, cwd)), 'STACKD_PLUGIN_NOT_FOUND');
});

test('a storage folder is one safe segment and never shared by two plugins', async (t) => {
  const builtins = {
    repair: () => Promise.resolve(plugin('repair', { storageFolder: 'symlink-repair' })),
    other: () => Promise.resolve(plugin('other', { storageFolder: 'symlink-repair' })),
    escape: () => Promise.resolve(plugin('escape', { storageFolder: '../outside' })),
    named: () => Promise.resolve(plugin('symlink-repair')),
  };
  const cwd = process.cwd();
  const loaded = await loadPlugins(['repair'], builtins, cwd);
  t.is(loaded[0]?.plugin.storageFolder, 'symlink-repair');
  t.is(await codeOf(loadPlugins(['repair', 'other'], builtins, cwd)), 'STACKD_PLUGIN_DUPLICATE');
  t.is(await codeOf(loadPlugins(['repair', 'named'], builtins, cwd)), 'STACKD_PLUGIN_DUPLICATE');
  t.is(await codeOf(loadPlugins(['escape'], builtins, cwd)), 'STACKD_PLUGIN_INVALID');
});
