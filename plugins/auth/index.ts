/**
 * The auth plugin: users, the setup wizard, JWT sign-in and the `core.authenticator` service
 * that guards every route and stream marked `required` (SPEC "Authentication", DECISIONS #6–10).
 */
import { authenticatorRef, definePlugin } from '../../sdk/index.js';
import { AuthRuntime } from './auth-runtime.js';
import { AuthConfig } from './config.js';
import { registerModeRoutes } from './routes/mode-routes.js';
import { registerSessionRoutes } from './routes/session-routes.js';
import { registerUserRoutes } from './routes/user-routes.js';

export default definePlugin({
  name: 'auth',
  version: '1.0.0',
  apiVersion: 1,
  config: AuthConfig,
  register(ctx) {
    const runtime = new AuthRuntime({
      storage: ctx.storage,
      logger: ctx.logger,
      config: ctx.config,
    });
    ctx.provide(authenticatorRef, runtime);
    ctx.onStart(() => runtime.start());
    registerModeRoutes({ ctx, runtime });
    registerSessionRoutes({ ctx, runtime });
    registerUserRoutes({ ctx, runtime });
  },
});
