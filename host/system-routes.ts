/** Host-owned routes: health, capabilities, the start page, the OpenAPI document and the docs. */
import { Type, type AnyRouteDefinition, defineRoute, eraseRoute, rawReply } from '../sdk/index.js';
import type { RunningHost } from '../core/lifecycle/host-runtime.js';
import { API_CAPABILITIES } from '../core/capabilities/capability-registry.js';
import { docsRoutes, HtmlPage } from './docs-routes.js';
import { JournalSizeSchema } from '../core/journal/journal-schemas.js';
import { homePage } from './home-page.js';
import { RUNTIME_LOG_LEVEL_FLAG, runtimeLogLevelRoutes } from './runtime-log-level.js';
import { prometheusRoute } from './prometheus-route.js';

const HealthNotes = Type.Optional(
  Type.String({
    description:
      'Facts that do not make the host unhealthy, e.g. "supervisor/processes: adopted 3 ' +
      'process(es) by the host start of <ISO time>: a, b, c" after a host restart.',
  }),
);

const HealthDetail = Type.Optional(
  Type.Object(
    { journal: Type.Optional(JournalSizeSchema) },
    {
      additionalProperties: true,
      description: 'Only with `detail=true`: sizes and counters, by section.',
    },
  ),
);

const HealthBody = Type.Union([
  Type.Object({ status: Type.Literal('healthy'), notes: HealthNotes, detail: HealthDetail }),
  Type.Object({
    status: Type.Literal('unhealthy'),
    details: Type.String({ description: 'One line, at most 200 characters.' }),
    notes: HealthNotes,
    detail: HealthDetail,
  }),
]);

const Capabilities = Type.Object(
  Object.fromEntries(API_CAPABILITIES.map((flag) => [flag, Type.Boolean()])),
  {
    additionalProperties: Type.Boolean(),
    description:
      'Every flag of the API contract, false unless a loaded plugin turns it on, plus flags declared by plugins.',
  },
);

function homeRoute(host: RunningHost, version: string): AnyRouteDefinition {
  return eraseRoute(
    defineRoute({
      method: 'GET',
      path: '/',
      auth: 'open',
      summary: 'Start page: version, loaded plugins and links to the docs',
      schema: { response: HtmlPage },
      handler: (request) =>
        rawReply(
          200,
          { 'content-type': 'text/html; charset=utf-8' },
          homePage({
            version,
            uwsBuild: host.uwsBuild,
            plugins: host.plugins.map(({ plugin }) => plugin),
            prefix: request.path.replace(/\/$/, ''),
          }),
        ),
    }),
  );
}

function healthRoute(host: RunningHost): AnyRouteDefinition {
  return eraseRoute(
    defineRoute({
      method: 'GET',
      path: '/health',
      auth: 'open',
      summary: 'Container health check',
      description:
        'Always 200: `healthy`, or `unhealthy` with a one-line reason collected from the ' +
        "plugins. With `detail=true` the answer adds `detail`: the event journal's size, " +
        'cursors and retention settings.',
      schema: {
        query: Type.Object({ detail: Type.Optional(Type.Boolean()) }),
        response: HealthBody,
      },
      handler: (request) => {
        const report = host.health.report();
        if (request.query.detail !== true) return report;
        const detail = host.health.details();
        return report instanceof Promise
          ? report.then((answer) => ({ ...answer, detail }))
          : { ...report, detail };
      },
    }),
  );
}

function capabilitiesRoute(host: RunningHost): AnyRouteDefinition {
  return eraseRoute(
    defineRoute({
      method: 'GET',
      path: '/process/capabilities',
      summary: 'Feature flags of this host',
      description:
        'Frontends switch features on these flags; a flag is true only when the plugin owning it is loaded and started.',
      schema: { response: Capabilities },
      handler: () => host.capabilities.snapshot(),
    }),
  );
}

/** The system routes of a running host. */
export function systemRoutes(host: RunningHost, version: string): AnyRouteDefinition[] {
  // The host's own flags: its routes below exist as soon as it serves.
  host.capabilities.declare('host', [RUNTIME_LOG_LEVEL_FLAG]);
  host.capabilities.set('host', RUNTIME_LOG_LEVEL_FLAG, true);
  host.capabilities.markStarted('host');
  return [
    ...runtimeLogLevelRoutes(host.sink),
    prometheusRoute(host),
    homeRoute(host, version),
    healthRoute(host),
    capabilitiesRoute(host),
    ...docsRoutes(host, version),
  ];
}
