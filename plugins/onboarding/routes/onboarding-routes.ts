/**
 * Onboarding routes: start-core-service, the catalog views, and the onboarding flag
 * (`stackd.onboarding_completed` in the configuration document, saved atomically).
 */
import {
  defineRoute,
  derivedFromStack,
  isJsonRecord,
  type StackConfig,
} from '../../../sdk/index.js';
import type { ServiceCatalogRegistry } from '../catalog/service-catalog.js';
import { coreServicesView, optionalServicesView } from '../start/catalog-views.js';
import type { CoreServiceStarter } from '../start/core-service-starter.js';
import {
  CoreServicesResponse,
  OnboardingChange,
  OnboardingStatus,
  OptionalServicesQuery,
  OptionalServicesResponse,
  StartCoreServiceBody,
  StartCoreServiceResponse,
} from '../schemas.js';

const START_DESCRIPTION = [
  'Configures and starts core services with their dependencies, and optional services.',
  'Per service, in order: its block is created from the catalog template (or the existing one',
  'reused), enabled, attached to the calling core service (`core_service` on per-core',
  'instances such as "Zurg w/ Riven", `core_services` on shared blocks), given `debrid_key`',
  'where the catalog says it is needed (never returned), overridden by `service_options`,',
  'validated and saved; the setup hooks run; a port taken by another enabled block or already',
  'bound on 127.0.0.1 moves to the next free port (saved); then it is launched and awaited.',
  'Order: optional services marked before_core (and their dependencies), then each core',
  "service's dependencies followed by the core service, then the other optional services.",
  'Optional services start only when listed; with no core_services the request only starts',
  'them (optional-only onboarding). Always 200: every failure (unknown name, invalid option,',
  'start failure) is an item of `errors` `{service, detail, code, field?}` while the other',
  'services still start.',
].join('\n');

const FLAG_PATH = ['stackd', 'onboarding_completed'] as const;

/** What the onboarding routes work with. */
export interface OnboardingRouteDeps {
  readonly catalog: ServiceCatalogRegistry;
  readonly starter: CoreServiceStarter;
}

/** POST /process/start-core-service */
export function startCoreServiceRoute(deps: OnboardingRouteDeps) {
  return defineRoute({
    method: 'POST',
    path: '/process/start-core-service',
    summary: 'Onboarding: configure and start core services, dependencies and optional services',
    description: START_DESCRIPTION,
    tags: ['process'],
    capability: 'optional_only_onboarding',
    schema: { body: StartCoreServiceBody, response: StartCoreServiceResponse },
    handler: ({ body }) => deps.starter.run(body),
  });
}

/** GET /process/core-services */
export function coreServicesRoute(deps: OnboardingRouteDeps) {
  return defineRoute({
    method: 'GET',
    path: '/process/core-services',
    summary: 'The core services onboarding offers, their dependencies and default options',
    tags: ['process'],
    schema: { response: CoreServicesResponse },
    handler: () => coreServicesView(deps.catalog),
  });
}

/** GET /process/optional-services */
export function optionalServicesRoute(deps: OnboardingRouteDeps) {
  return defineRoute({
    method: 'GET',
    path: '/process/optional-services',
    summary: 'The optional services onboarding offers, with their options',
    description:
      'core_service and optional_services (repeated or comma-separated) tailor the list: ' +
      'services they need anyway are left out.',
    tags: ['process'],
    capability: 'optional_service_options',
    schema: { query: OptionalServicesQuery, response: OptionalServicesResponse },
    handler: ({ query }) => optionalServicesView(deps.catalog, query),
  });
}

async function setCompleted(stack: StackConfig, value: boolean, status: string) {
  await stack.update(
    (draft) => {
      const host = draft.stackd;
      if (isJsonRecord(host)) host.onboarding_completed = value;
      else draft.stackd = { onboarding_completed: value };
    },
    { persist: [...FLAG_PATH], reason: 'onboarding' },
  );
  return { status, onboarding_completed: value, needs_onboarding: !value };
}

/** GET /config/onboarding-status */
export function onboardingStatusRoute(stack: StackConfig) {
  // Read again only when the document changes: a copy of the whole document per request to read
  // one flag was most of the route's cost at a thousand processes.
  const done = derivedFromStack(stack, (document) => {
    const host = document.stackd;
    return isJsonRecord(host) && host.onboarding_completed === true;
  });
  return defineRoute({
    method: 'GET',
    path: '/config/onboarding-status',
    summary: 'Whether onboarding is still needed',
    description: 'From `stackd.onboarding_completed` of the configuration (false when absent).',
    tags: ['config'],
    schema: { response: OnboardingStatus },
    handler: () => ({ onboarding_completed: done(), needs_onboarding: !done() }),
  });
}

/** POST /config/onboarding-completed */
export function onboardingCompletedRoute(stack: StackConfig) {
  return defineRoute({
    method: 'POST',
    path: '/config/onboarding-completed',
    summary: 'Mark onboarding complete (saved to the configuration file)',
    tags: ['config'],
    schema: { response: OnboardingChange },
    handler: () => setCompleted(stack, true, 'Onboarding completed successfully'),
  });
}

/** POST /config/reset-onboarding */
export function resetOnboardingRoute(stack: StackConfig) {
  return defineRoute({
    method: 'POST',
    path: '/config/reset-onboarding',
    summary: 'Reset onboarding to incomplete (saved to the configuration file)',
    tags: ['config'],
    schema: { response: OnboardingChange },
    handler: () => setCompleted(stack, false, 'Onboarding status reset to false'),
  });
}
