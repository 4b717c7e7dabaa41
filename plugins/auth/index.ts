/**
 * The auth plugin: users, the setup wizard, JWT sign-in and the `core.authenticator` service
 * that guards every route and stream marked `required` (docs/decisions.md §6–10,
 * #25, #28). Wiring only.
 */
import { authenticatorRef, definePlugin, notableEvent } from '../../sdk/index.js';
import { AuthRuntime } from './auth-runtime.js';
import { journalAccountEvent, loginEvent, USER_EVENT_KINDS } from './events.js';
import { AuthConfig } from './config.js';
import {
  authStatusRoute,
  disableRoute,
  enableRoute,
  setupRoute,
  skipSetupRoute,
} from './routes/mode-routes.js';
import { loginRoute, logoutRoute, refreshRoute, verifyRoute } from './routes/session-routes.js';
import {
  createUserRoute,
  deleteUserRoute,
  listUsersRoute,
  updateUserRoute,
} from './routes/user-routes.js';
import {
  createScrapeTokenRoute,
  listScrapeTokensRoute,
  revokeScrapeTokenRoute,
} from './routes/scrape-token-routes.js';

export default definePlugin({
  name: 'auth',
  version: '1.0.0',
  apiVersion: 1,
  config: AuthConfig,
  register(ctx) {
    ctx.eventKind(loginEvent);
    for (const kind of USER_EVENT_KINDS) ctx.eventKind(kind);
    const runtime = new AuthRuntime({
      storage: ctx.storage,
      logger: ctx.logger,
      config: ctx.config,
      onLockout: ({ username, seconds }) =>
        ctx.events.emit(notableEvent, {
          event_type: 'auth.login.locked_out',
          severity: 'warning',
          title: `Login locked for ${username}`,
          body: `Repeated failed logins for '${username}' from one address; that address waits ${seconds} s.`,
          condition_key: username.toLowerCase(),
          source: 'auth',
          details: { username, lockout_seconds: seconds },
        }),
      onLogin: (attempt) =>
        ctx.events.publish(loginEvent, {
          subject: attempt.username,
          data: { outcome: attempt.outcome, ip: attempt.ip },
        }),
      onAccountEvent: (event) => journalAccountEvent(ctx.events, event),
    });
    ctx.provide(authenticatorRef, runtime);
    ctx.onStart(() => runtime.start());

    ctx.route(authStatusRoute(runtime));
    ctx.route(setupRoute(runtime));
    ctx.route(skipSetupRoute(runtime));
    ctx.route(enableRoute(runtime));
    ctx.route(disableRoute(runtime));
    ctx.route(loginRoute(runtime));
    ctx.route(refreshRoute(runtime));
    ctx.route(verifyRoute(runtime));
    ctx.route(logoutRoute(runtime));
    ctx.route(listUsersRoute(runtime));
    ctx.route(createUserRoute(runtime));
    ctx.route(updateUserRoute(runtime));
    ctx.route(deleteUserRoute(runtime));
    ctx.route(createScrapeTokenRoute(runtime));
    ctx.route(listScrapeTokensRoute(runtime));
    ctx.route(revokeScrapeTokenRoute(runtime));
  },
});
