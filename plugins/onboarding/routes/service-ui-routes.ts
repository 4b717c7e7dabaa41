/**
 * Service UIs: GET/POST /config/service-ui and the reverse proxy at `/service/ui/<key>/` (core's
 * proxy: HTTP streamed both ways, WebSocket upgrades, behind the auth gate). The switch is
 * `stackd.onboarding.service_ui_enabled` in the configuration, saved when toggled; while it is
 * off, or for a key that is unknown or disabled, the proxy answers 404.
 */
import {
  defineRoute,
  type JsonRecord,
  type ProxyDefinition,
  type StackConfig,
} from '../../../sdk/index.js';
import { SERVICE_UI_PREFIX } from '../service-ui/service-ui-map.js';
import type { ServiceUiState } from '../service-ui/service-ui-state.js';
import { ServiceUiList, ServiceUiToggle, ServiceUiToggled } from '../schemas.js';

const ENABLED_PATH = ['stackd', 'onboarding', 'service_ui_enabled'] as const;

/** The reverse proxy at `/service/ui/<key>/`. */
export function serviceUiProxy(state: ServiceUiState): ProxyDefinition {
  return {
    prefix: SERVICE_UI_PREFIX,
    summary: "A service's own web UI (when service UIs are enabled)",
    resolve: (key) => {
      const origin = state.origin(key);
      return origin === null ? null : { origin };
    },
  };
}

/** GET /config/service-ui */
export function serviceUiListRoute(state: ServiceUiState) {
  return defineRoute({
    method: 'GET',
    path: '/config/service-ui',
    summary: 'The service UIs the proxy exposes (enabled services with a port)',
    description:
      'One entry per enabled process with a port: key = the config key, or ' +
      '`<config_key>_<instance>` for instances (lower case). Listed whether or not the proxy is on.',
    tags: ['config'],
    schema: { response: ServiceUiList },
    handler: () => {
      const current = state.current();
      return {
        enabled: current.enabled,
        services: current.list.map(({ name, port, path }) => ({ name, port, path })),
      };
    },
  });
}

/** POST /config/service-ui */
export function serviceUiToggleRoute(stack: StackConfig) {
  return defineRoute({
    method: 'POST',
    path: '/config/service-ui',
    summary: 'Turn the service UI reverse proxy on or off (saved to the configuration file)',
    tags: ['config'],
    schema: { body: ServiceUiToggle, response: ServiceUiToggled },
    handler: async ({ body }) => {
      await stack.update(
        (draft) => {
          const host = objectAt(draft, 'stackd');
          objectAt(host, 'onboarding').service_ui_enabled = body.enabled;
        },
        { persist: [...ENABLED_PATH], reason: 'service-ui' },
      );
      return {
        message: body.enabled
          ? `Service UIs enabled at ${SERVICE_UI_PREFIX}/<key>/`
          : 'Service UIs disabled',
        enabled: body.enabled,
      };
    },
  });
}

function objectAt(parent: JsonRecord, key: string): JsonRecord {
  const value = parent[key];
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as JsonRecord;
  const created: JsonRecord = {};
  parent[key] = created;
  return created;
}
