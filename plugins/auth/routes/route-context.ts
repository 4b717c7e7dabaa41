/** What route files need: a way to declare routes, and the started plugin. */
import type { PluginContext } from '../../../sdk/index.js';
import type { AuthRuntime } from '../auth-runtime.js';

/** The declare-call of the plugin context. */
export type RouteDeclarer = Pick<PluginContext, 'route'>;

/** Arguments every route file's register function takes. */
export interface AuthRouteDeps {
  readonly ctx: RouteDeclarer;
  readonly runtime: AuthRuntime;
}

/** OpenAPI tag of every auth route. */
export const AUTH_TAGS = ['auth'] as const;
