/**
 * The notifications plugin: outbound notifications (issue #16). This increment serves event
 * discovery and declares the config slice; delivery, queue and history follow. Wiring only.
 */
import { definePlugin } from '../../sdk/index.js';
import { NotificationsConfig } from './config.js';
import { eventsRoute } from './routes/events.js';
import { getConfigRoute } from './routes/get-config.js';

export default definePlugin({
  name: 'notifications',
  version: '0.1.0',
  apiVersion: 1,
  dependsOn: [],
  config: NotificationsConfig,
  register(ctx) {
    ctx.route(eventsRoute());
    ctx.route(getConfigRoute(() => ctx.stack.read()));
  },
});
