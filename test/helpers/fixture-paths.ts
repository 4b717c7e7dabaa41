/** Paths of compiled fixture plugins and programs. */
import { join } from 'node:path';
import { FIXTURES_DIR } from './start-host.js';

/** The example third-party plugin package (examples/hello-plugin, built by `npm run build`). */
export const HELLO_PLUGIN_DIR = join(FIXTURES_DIR, '..', '..', '..', 'examples', 'hello-plugin');

/** A compiled fixture plugin of test/fixtures/plugins/broken/. */
export function brokenPlugin(name: string): string {
  return join(FIXTURES_DIR, 'plugins', 'broken', `${name}.js`);
}

/** The compiled entry of a built-in plugin, to load it by path without the others. */
export function builtinPlugin(name: string): string {
  return join(FIXTURES_DIR, '..', '..', 'plugins', name, 'index.js');
}
