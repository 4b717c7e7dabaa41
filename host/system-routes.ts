/** Host-owned routes: health, capabilities, the OpenAPI document and the docs pages. */
import {
  ErrorBody,
  Type,
  type AnyRouteDefinition,
  defineRoute,
  eraseRoute,
  jsonTextReply,
  rawReply,
  NotFoundError,
  StringEnum,
} from '../sdk/index.js';
import type { RunningHost } from '../core/lifecycle/host-runtime.js';
import { buildOpenApi } from '../core/schema/openapi.js';
import { API_CAPABILITIES } from '../core/capabilities/capability-registry.js';
import { JournalSizeSchema } from '../core/journal/journal-schemas.js';
import { DOC_ASSETS, docsPage, readDocAsset } from './docs-pages.js';
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

const HtmlPage = Type.String({ description: 'An HTML page', contentMediaType: 'text/html' });

/** The documentation assets' media types, as served (parameters such as charset left off). */
const ASSET_TYPES = [
  ...new Set(Object.values(DOC_ASSETS).map((type) => type.split(';')[0]?.trim() ?? type)),
];

function prefixOf(path: string, page: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.slice(0, trimmed.length - page.length);
}

/** The system routes of a running host. */
export function systemRoutes(host: RunningHost, version: string): AnyRouteDefinition[] {
  // The host's own flags: its routes below exist as soon as it serves.
  host.capabilities.declare('host', [RUNTIME_LOG_LEVEL_FLAG]);
  host.capabilities.set('host', RUNTIME_LOG_LEVEL_FLAG, true);
  host.capabilities.markStarted('host');
  let openapi: string | undefined;
  const openApiText = (): string => {
    openapi ??= JSON.stringify(
      buildOpenApi({
        title: 'stackd',
        version,
        description:
          'Process supervisor for media stacks. Every route is also served under `/api`; errors are `{detail, code, field?}`. With authentication enabled, send `Authorization: Bearer <access token>` (WebSockets: `?token=`).',
        routes: host.routes.all(),
        streams: host.streams.all(),
        proxies: host.proxies.all(),
        tagDescriptions: { host: 'Health, capabilities and documentation' },
      }),
    );
    return openapi;
  };
  const exposition = prometheusRoute(host);
  return [
    ...runtimeLogLevelRoutes(host.sink),
    exposition,
    eraseRoute(
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
    ),
    eraseRoute(
      defineRoute({
        method: 'GET',
        path: '/health',
        auth: 'open',
        summary: 'Container health check',
        description:
          "Always 200: `healthy`, or `unhealthy` with a one-line reason collected from the plugins. With `detail=true` the answer adds `detail`: the event journal's size, cursors and retention settings.",
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
    ),
    eraseRoute(
      defineRoute({
        method: 'GET',
        path: '/process/capabilities',
        summary: 'Feature flags of this host',
        description:
          'Frontends switch features on these flags; a flag is true only when the plugin owning it is loaded and started.',
        schema: { response: Capabilities },
        handler: () => host.capabilities.snapshot(),
      }),
    ),
    eraseRoute(
      defineRoute({
        method: 'GET',
        path: '/openapi.json',
        auth: 'open',
        summary: 'The OpenAPI 3.1 document of every route and stream',
        schema: {
          response: Type.Object({ openapi: Type.String() }, { additionalProperties: true }),
        },
        handler: () => jsonTextReply(200, openApiText()),
      }),
    ),
    eraseRoute(
      defineRoute({
        method: 'GET',
        path: '/docs',
        auth: 'open',
        summary: 'Interactive API explorer (Swagger UI)',
        schema: { response: HtmlPage },
        handler: (request) =>
          rawReply(
            200,
            { 'content-type': 'text/html; charset=utf-8' },
            docsPage({
              prefix: prefixOf(request.path, '/docs'),
              readOnly: false,
              title: 'stackd API explorer',
            }),
          ),
      }),
    ),
    eraseRoute(
      defineRoute({
        method: 'GET',
        path: '/redoc',
        auth: 'open',
        summary: 'Read-only API reference',
        schema: { response: HtmlPage },
        handler: (request) =>
          rawReply(
            200,
            { 'content-type': 'text/html; charset=utf-8' },
            docsPage({
              prefix: prefixOf(request.path, '/redoc'),
              readOnly: true,
              title: 'stackd API reference',
            }),
          ),
      }),
    ),
    eraseRoute(
      defineRoute({
        method: 'GET',
        path: '/docs/assets/:file',
        auth: 'open',
        summary: 'Static assets of the documentation pages',
        schema: {
          params: Type.Object({
            file: StringEnum(Object.keys(DOC_ASSETS) as [string, ...string[]]),
          }),
          response: {
            200: Type.String({
              description: 'The asset, with its own content type',
              'x-content-types': ASSET_TYPES,
            }),
            404: ErrorBody,
          },
        },
        handler: async (request) => {
          const file = String(request.params.file);
          const content = await readDocAsset(file);
          if (content === undefined)
            throw new NotFoundError('DOCS_ASSET_NOT_FOUND', `no asset ${file}`, { field: 'file' });
          return rawReply(
            200,
            {
              'content-type': DOC_ASSETS[file] ?? 'application/octet-stream',
              'cache-control': 'public, max-age=86400',
            },
            content,
          );
        },
      }),
    ),
  ];
}
