/**
 * The entry of the host's bundle (tools/bundle-host builds it into one CommonJS file,
 * `dist/bundle/stackd.cjs`): the program, the sdk, the built-in plugins and the test kit, so the
 * host, its plugins, `stackd/sdk` and `stackd/sdk/testing` all take the one copy of every sdk
 * class, symbol and registry that this file holds. The test kit is loaded on request: a host
 * never runs its code.
 */
import type * as Testing from '../testing/index.js';

export { run } from './run.js';
export { BUILTIN_PLUGINS } from './builtin-plugins.js';
export * as sdk from '../sdk/index.js';

/** `stackd/sdk/testing`, evaluated when a test first asks for it. */
export const loadTesting = (): Promise<typeof Testing> => import('../testing/index.js');
