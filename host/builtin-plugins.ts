import type { BuiltinPlugins } from '../core/plugins/plugin-loader.js';

/** The built-in plugins, by name, loaded lazily so `--plugins` can leave any of them out. */
export const BUILTIN_PLUGINS: BuiltinPlugins = {
  auth: () => import('../plugins/auth/index.js'),
  supervisor: () => import('../plugins/supervisor/index.js'),
  onboarding: () => import('../plugins/onboarding/index.js'),
  graph: () => import('../plugins/graph/index.js'),
  metrics: () => import('../plugins/metrics/index.js'),
  sync: () => import('../plugins/sync/index.js'),
  ai: () => import('../plugins/ai/index.js'),
  symlinks: () => import('../plugins/symlinks/index.js'),
  notifications: () => import('../plugins/notifications/index.js'),
};
