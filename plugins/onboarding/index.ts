/**
 * The onboarding plugin: what stackd knows about media-stack services. The service catalog
 * (shipped data + `catalog_file` + other plugins through `serviceCatalogRef`), onboarding
 * (start-core-service, the core/optional service lists, the onboarding flag), raw service config
 * files, and service UIs behind the reverse proxy. It talks to the supervisor only through the
 * `supervisor.processes` contract: setup hooks run as a start preparer before every launch.
 * Wiring only.
 */
import { definePlugin, serviceCatalogRef } from '../../sdk/index.js';
import { OnboardingConfig } from './config.js';
import { OnboardingRuntime } from './onboarding-runtime.js';
import {
  coreServicesRoute,
  onboardingCompletedRoute,
  onboardingStatusRoute,
  optionalServicesRoute,
  resetOnboardingRoute,
  startCoreServiceRoute,
} from './routes/onboarding-routes.js';
import { serviceConfigPreviewRoute, serviceConfigRoute } from './routes/service-config-routes.js';
import {
  serviceUiListRoute,
  serviceUiProxy,
  serviceUiToggleRoute,
} from './routes/service-ui-routes.js';

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
    const runtime = new OnboardingRuntime(ctx);
    const { catalog, starter, serviceUis } = runtime;
    ctx.provide(serviceCatalogRef, catalog);

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

    const stopPreparing = runtime.prepareEveryStart();
    ctx.onStart(() => runtime.start());
    ctx.onStop(stopPreparing);
  },
});
