/**
 * What a plugin author's own tests import: `stackd/sdk` and `stackd/sdk/testing`, by the
 * package's name, i.e. the build's bundle that package.json's exports name. Both must be one sdk
 * instance with the host the test kit boots, or the host's `instanceof` checks on a plugin's
 * errors fail.
 */
import test from 'ava';
import type * as Sdk from '../../sdk/index.js';
import type * as Testing from '../../testing/index.js';

// Through variables so that TypeScript types them from the sources, not from the exports.
const SDK = 'stackd/sdk';
const TESTING = 'stackd/sdk/testing';

test("the package's sdk and test kit are one instance: a plugin's PluginConfigError is the host's", async (t) => {
  const sdk = (await import(SDK)) as typeof Sdk;
  const testing = (await import(TESTING)) as typeof Testing;
  t.regex(import.meta.resolve(SDK), /\/dist\/bundle\/sdk\/index\.js$/);
  const picky = sdk.definePlugin({
    name: 'picky',
    version: '1.0.0',
    apiVersion: 1,
    register() {
      throw new sdk.PluginConfigError('stackd.picky.mode', 'contradicts stackd.picky.level');
    },
  });
  // A second copy of the sdk would make this STACKD_REGISTER_FAILED: the host tells a config
  // error from any other failure of register() by `instanceof` on its own class.
  const error = await t.throwsAsync(testing.createTestHost({ plugins: [picky] }));
  t.regex(
    error?.message ?? '',
    /STACKD_CONFIG_INVALID: .*stackd\.picky\.mode: contradicts stackd\.picky\.level/,
  );
});
