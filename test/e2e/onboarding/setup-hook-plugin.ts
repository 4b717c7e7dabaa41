/**
 * A third-party-style plugin for the e2e tests: adds a service to the catalog through the sdk and
 * registers a setup hook that writes an env var into the block before every launch.
 */
import { definePlugin } from '../../../sdk/index.js';
import { serviceCatalogRef } from '../../../sdk/index.js';

export default definePlugin({
  name: 'catalog-extension',
  version: '1.0.0',
  apiVersion: 1,
  dependsOn: ['onboarding'],
  register(ctx) {
    const catalog = ctx.use(serviceCatalogRef);
    catalog.addServices([
      {
        key: 'plugin_optional',
        name: 'Plugin Optional',
        role: 'optional',
        description: 'Added by a plugin.',
        options: { log_level: 'Log level.' },
        template: {
          process_name: 'Plugin Optional',
          command: ['node', '-e', ''],
          log_level: 'WARN',
        },
      },
    ]);
    let runs = 0;
    catalog.addSetupHook('media_core', ({ block, process_name }) => {
      runs += 1;
      const env = (block.env ?? {}) as Record<string, string>;
      block.env = { ...env, SETUP_RUNS: String(runs) };
      ctx.logger.info(`setup hook ran for ${process_name}`);
    });
  },
});
