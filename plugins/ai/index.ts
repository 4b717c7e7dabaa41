/** The AI diagnostics plugin. Wiring only: the parts are built by AiRuntime. */
import { definePlugin } from '../../sdk/index.js';
import { AiRuntime } from './ai-runtime.js';
import { AiConfig } from './config.js';
import { presetsRoute } from './routes/preset-routes.js';
import {
  activateProfileRoute,
  deleteProfileRoute,
  saveProfileRoute,
} from './routes/profile-routes.js';
import { diagnoseRoute, diagnoseStackRoute, followUpRoute } from './routes/diagnose-routes.js';
import { modelsRoute, testRoute } from './routes/provider-routes.js';
import { getSettingsRoute, putSettingsRoute } from './routes/settings-routes.js';

export default definePlugin({
  name: 'ai',
  // docs/decisions.md §18: the ledger lives at <data-dir>/ai-diagnostics/events.sqlite.
  storageFolder: 'ai-diagnostics',
  version: '0.1.0',
  apiVersion: 1,
  dependsOn: [],
  optionalDependsOn: ['supervisor', 'graph', 'metrics'],
  capabilities: ['ai_provider_profiles', 'ai_diagnostics'],
  config: AiConfig,
  register(ctx) {
    const ai = new AiRuntime(ctx);
    const { settings, diagnosis } = ai;
    ctx.route(getSettingsRoute(settings));
    ctx.route(putSettingsRoute(settings));
    ctx.route(saveProfileRoute(settings));
    ctx.route(activateProfileRoute(settings));
    ctx.route(deleteProfileRoute(settings));
    ctx.route(presetsRoute());
    ctx.route(testRoute(settings));
    ctx.route(modelsRoute(settings));
    ctx.route(diagnoseRoute(diagnosis));
    ctx.route(diagnoseStackRoute(diagnosis));
    ctx.route(followUpRoute(diagnosis));
    ctx.onStart(() => ai.start());
    ctx.onStop(() => ai.stop());
  },
});
