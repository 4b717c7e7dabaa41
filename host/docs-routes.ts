/**
 * The API's own documentation: the OpenAPI document, the Swagger UI page, its read-only twin and
 * the assets both pages load from the installed swagger-ui-dist package.
 */
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
import { buildOpenApi } from '../core/openapi/openapi.js';
import { DOC_ASSETS, docsPage, readDocAsset } from './docs-pages.js';

/** An HTML page as a response schema. */
export const HtmlPage = Type.String({ description: 'An HTML page', contentMediaType: 'text/html' });

/** The documentation assets' media types, as served (parameters such as charset left off). */
const ASSET_TYPES = [
  ...new Set(Object.values(DOC_ASSETS).map((type) => type.split(';')[0]?.trim() ?? type)),
];

function prefixOf(path: string, page: string): string {
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.slice(0, trimmed.length - page.length);
}

/** `/openapi.json`, built on first request: every route is registered by then. */
function openApiRoute(host: RunningHost, version: string): AnyRouteDefinition {
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
  return eraseRoute(
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
  );
}

/** A docs page: the same renderer, interactive at `/docs` and read-only at `/redoc`. */
function docsPageRoute(page: {
  path: '/docs' | '/redoc';
  summary: string;
  readOnly: boolean;
  title: string;
}): AnyRouteDefinition {
  return eraseRoute(
    defineRoute({
      method: 'GET',
      path: page.path,
      auth: 'open',
      summary: page.summary,
      schema: { response: HtmlPage },
      handler: (request) =>
        rawReply(
          200,
          { 'content-type': 'text/html; charset=utf-8' },
          docsPage({
            prefix: prefixOf(request.path, page.path),
            readOnly: page.readOnly,
            title: page.title,
          }),
        ),
    }),
  );
}

function docsAssetRoute(): AnyRouteDefinition {
  return eraseRoute(
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
  );
}

/** The documentation routes of a running host. */
export function docsRoutes(host: RunningHost, version: string): AnyRouteDefinition[] {
  return [
    openApiRoute(host, version),
    docsPageRoute({
      path: '/docs',
      summary: 'Interactive API explorer (Swagger UI)',
      readOnly: false,
      title: 'stackd API explorer',
    }),
    docsPageRoute({
      path: '/redoc',
      summary: 'Read-only API reference',
      readOnly: true,
      title: 'stackd API reference',
    }),
    docsAssetRoute(),
  ];
}
