/**
 * The onboarding plugin: what stackd knows about media-stack services. The service catalog
 * (shipped data + `catalog_file` + other plugins through `serviceCatalogRef`), onboarding
 * (start-core-service, the core/optional service lists, the onboarding flag), raw service config
 * files, and service UIs behind the reverse proxy. It talks to the supervisor only through the
 * `supervisor.processes` contract: setup hooks run as a start preparer before every launch.
 * Wiring only.
 */
import {
  definePlugin,
  derivedFromStack,
  listProcessEntries,
  processSupervisorRef,
  serviceCatalogRef,
} from '../../sdk/index.js';
import { loadCatalogs } from './catalog/load-catalog.js';
import { ServiceCatalogRegistry } from './catalog/service-catalog.js';
import { OnboardingConfig } from './config.js';
import {
  coreServicesRoute,
  onboardingCompletedRoute,
  onboardingStatusRoute,
  optionalServicesRoute,
  resetOnboardingRoute,
  startCoreServiceRoute,
} from './routes/onboarding-routes.js';
import { serviceConfigPreviewRoute, serviceConfigRoute } from './routes/service-config-route.js';
import {
  serviceUiListRoute,
  serviceUiProxy,
  serviceUiToggleRoute,
} from './routes/service-ui-routes.js';
import { ServiceUiState } from './service-ui/service-ui-state.js';
import { CoreServiceStarter } from './start/core-service-starter.js';
import { runSetupHooks } from './start/setup-hooks.js';

export default definePlugin({
  name: 'onboarding',
  version: '0.1.0',
  apiVersion: 1,
  dependsOn: ['supervisor'],
  // Onboarding creates and edits service blocks.
  configAccess: 'document',
  capabilities: ['optional_only_onboarding', 'optional_service_options'],
  config: OnboardingConfig,
  register(ctx) {
    const catalog = new ServiceCatalogRegistry();
    ctx.provide(serviceCatalogRef, catalog);
    const entries = derivedFromStack(ctx.stack, listProcessEntries);
    const setup = (entry: Parameters<typeof runSetupHooks>[0]) =>
      runSetupHooks(entry, {
        catalog,
        stack: ctx.stack,
        dataDir: ctx.host.dataDir,
        logger: ctx.logger,
        entries,
      });

    const starter = new CoreServiceStarter({
      catalog,
      stack: ctx.stack,
      supervisor: () => ctx.use(processSupervisorRef),
      entries,
      setup,
      reservedPorts: () => {
        const base = ctx.host.baseUrl();
        return base === null ? [] : [Number(new URL(base).port)];
      },
      logger: ctx.logger.child('start'),
    });
    const serviceUis = new ServiceUiState(ctx.stack);
    ctx.stack.onChange(() => serviceUis.invalidate());

    ctx.route(startCoreServiceRoute({ catalog, starter }));
    ctx.route(coreServicesRoute({ catalog, starter }));
    ctx.route(optionalServicesRoute({ catalog, starter }));
    ctx.route(onboardingStatusRoute(ctx.stack));
    ctx.route(onboardingCompletedRoute(ctx.stack));
    ctx.route(resetOnboardingRoute(ctx.stack));
    const serviceConfig = {
      catalog,
      stack: ctx.stack,
      dataDir: ctx.host.dataDir,
      logger: ctx.logger,
    };
    ctx.route(serviceConfigRoute(serviceConfig));
    ctx.route(serviceConfigPreviewRoute(serviceConfig));
    ctx.route(serviceUiListRoute(serviceUis));
    ctx.route(serviceUiToggleRoute(ctx.stack));
    ctx.proxy(serviceUiProxy(serviceUis));

    // Setup hooks run before every launch the control routes make, not only at onboarding.
    const removePreparer = ctx.use(processSupervisorRef).addStartPreparer(async (process) => {
      const entry = entries().find((candidate) => candidate.process_name === process.process_name);
      if (entry !== undefined) await setup(entry);
    });
    ctx.onStart(() => loadCatalogs(catalog, ctx.config.catalog_file, ctx.host.dataDir));
    ctx.onStop(removePreparer);
  },
});
