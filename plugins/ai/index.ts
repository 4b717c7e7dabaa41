/** The AI diagnostics plugin. Wiring only. */
import { onProviderCall } from './provider/provider-client.js';
import {
  definePlugin,
  dependencyGraphRef,
  OutboundClient,
  processSupervisorRef,
} from '../../sdk/index.js';
import { metricsFeedRef } from '../../sdk/contracts/metrics-feed.js';
import { DiagnosisService } from './diagnosis.js';
import { docsContext } from './bundle/docs-context.js';
import { Ledger } from './ledger.js';
import { presetsRoute } from './routes/preset-routes.js';
import {
  activateProfileRoute,
  deleteProfileRoute,
  saveProfileRoute,
} from './routes/profile-routes.js';
import { diagnoseRoute, diagnoseStackRoute, followUpRoute } from './routes/diagnose-routes.js';
import { useOutbound } from './provider/provider-client.js';
import { modelsRoute, testRoute } from './routes/provider-routes.js';
import { getSettingsRoute, putSettingsRoute } from './routes/settings-routes.js';
import { SessionStore } from './sessions.js';
import { SettingsStore } from './settings/settings-store.js';

export default definePlugin({
  name: 'ai',
  // docs/decisions.md §18: the ledger lives at <data-dir>/ai-diagnostics/events.sqlite.
  storageFolder: 'ai-diagnostics',
  version: '0.1.0',
  apiVersion: 1,
  dependsOn: [],
  optionalDependsOn: ['supervisor', 'graph', 'metrics'],
  capabilities: ['ai_provider_profiles', 'ai_diagnostics'],
  register(ctx) {
    const outbound = OutboundClient.forPlugin(ctx);
    useOutbound(outbound);
    const calls = ctx.exposition.counter<'provider' | 'outcome'>({
      name: 'stackd_ai_provider_calls_total',
      help: 'Calls to the AI provider, by provider and outcome (ok, error)',
      labelNames: ['provider', 'outcome'],
    });
    const releaseCalls = onProviderCall((provider, outcome) => calls.inc({ provider, outcome }));
    ctx.onStop(() => {
      releaseCalls();
    });
    const settings = new SettingsStore(ctx.storage);
    let ledger: Ledger | undefined;
    const service = new DiagnosisService(settings, new SessionStore(), {
      document: () => ctx.stack.read(),
      supervisor: () => ctx.optional(processSupervisorRef),
      history: () => ledger?.recent() ?? [],
      graph: () => ctx.optional(dependencyGraphRef),
      metrics: () => ctx.metricsFeed.latest(),
      docs: (subject, maxChars) =>
        docsContext(
          { docsDir: process.env.STACKD_AI_DOCS_DIR, readmePath: ctx.host.docsPath, maxChars },
          subject,
        ),
      metricsHistory: () => {
        const feed = ctx.optional(metricsFeedRef);
        return feed === undefined ? undefined : (query) => feed.history(query);
      },
    });
    ctx.route(getSettingsRoute(settings));
    ctx.route(putSettingsRoute(settings));
    ctx.route(saveProfileRoute(settings));
    ctx.route(activateProfileRoute(settings));
    ctx.route(deleteProfileRoute(settings));
    ctx.route(presetsRoute());
    ctx.route(testRoute(settings));
    ctx.route(modelsRoute(settings));
    ctx.route(diagnoseRoute(service));
    ctx.route(diagnoseStackRoute(service));
    ctx.route(followUpRoute(service));
    const unsubscribe = ctx.stack.onChange((change) => ledger?.recordConfigChange(change));
    ctx.onStart(async () => {
      await settings.load();
      ledger = new Ledger(ctx.storage.openDatabase('events.sqlite'));
    });
    ctx.onStop(async () => {
      unsubscribe();
      await outbound.close();
    });
  },
});
