/** The OpenAPI 3.1 document, built from the route table and the streams: one source of truth. */
import { compareText } from '../../sdk/text-order.js';
import type { TSchema } from '@sinclair/typebox';
import { ErrorBody } from '../../sdk/schema.js';
import { responseSchemas, type RegisteredRoute } from '../http/route-table.js';
import { servedPaths, toOpenApiPath } from '../http/route-paths.js';
import type { RegisteredStream } from '../ws/stream-hub.js';
import type { RegisteredProxy } from '../http/proxy-table.js';

type Json = Record<string, unknown>;

/** Inputs of {@link buildOpenApi}. */
export interface OpenApiInput {
  readonly title: string;
  readonly version: string;
  readonly description: string;
  readonly routes: readonly RegisteredRoute[];
  readonly streams: readonly RegisteredStream[];
  readonly proxies: readonly RegisteredProxy[];
  /** Plugin name → description line, for tags. */
  readonly tagDescriptions: Readonly<Record<string, string>>;
}

const ERROR_REF = { $ref: '#/components/schemas/ErrorBody' };

/** JSON copy of a TypeBox schema without `$id` (inline schemas must not redefine ids). */
function plain(schema: TSchema): Json {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
    key === '$id' ? undefined : value,
  ) as Json;
}

function errorResponse(description: string): Json {
  return { description, content: { 'application/json': { schema: ERROR_REF } } };
}

function parametersOf(schema: TSchema | undefined, location: 'path' | 'query'): Json[] {
  if (schema === undefined) return [];
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const parameter: Json = {
      name,
      in: location,
      required: location === 'path' || (required.has(name) && property.default === undefined),
      schema: plain(property),
    };
    if (typeof property.description === 'string') parameter.description = property.description;
    return parameter;
  });
}

function aliasNote(path: string): string {
  const aliases = servedPaths(path).filter((alias) => alias !== path && !alias.endsWith('/'));
  return aliases.length === 0
    ? ''
    : `Also served at ${aliases.map((alias) => `\`${alias}\``).join(', ')}.`;
}

/**
 * Media types of a response: a schema's `x-content-types` (pages and assets served as they are),
 * else its `contentMediaType`, else JSON; then those of each schema in `x-alternative-contents`
 * (a route that negotiates, like JSON or the Prometheus text formats on `GET /metrics`).
 */
function contentOf(schema: TSchema): Json {
  const listed = schema['x-content-types'] as unknown;
  const types = Array.isArray(listed)
    ? listed.filter((type): type is string => typeof type === 'string')
    : typeof schema.contentMediaType === 'string'
      ? [schema.contentMediaType]
      : ['application/json'];
  const body = plain(schema);
  delete body['x-content-types'];
  delete body['x-alternative-contents'];
  const content: Json = Object.fromEntries(types.map((type) => [type, { schema: body }]));
  const alternatives = schema['x-alternative-contents'] as unknown;
  if (Array.isArray(alternatives))
    for (const alternative of alternatives as TSchema[])
      Object.assign(content, contentOf(alternative));
  return content;
}

/**
 * Answers the request pipeline gives on every operation, before the route's own code runs:
 * 400 for malformed percent-encoding in the path or query, or for a request whose framing is
 * ambiguous; 431 for headers over 64 KB.
 */
function addPipelineAnswers(responses: Json): void {
  responses['400'] ??= errorResponse(
    'Malformed request: bad percent-encoding in the path or query (`REQUEST_MALFORMED_ENCODING`, ' +
      '`field` names it), more than one Content-Length, a bad Host or a backslash in the path',
  );
  responses['431'] = errorResponse('Request headers over 64 KB (`REQUEST_HEADERS_TOO_LARGE`)');
}

function operationOf(route: RegisteredRoute): Json {
  const { definition } = route;
  const responses: Json = {};
  for (const [status, schema] of responseSchemas(definition)) {
    responses[String(status)] = {
      description: status < 300 ? 'Success' : 'Answer',
      content: contentOf(schema),
    };
  }
  addPipelineAnswers(responses);
  const hasInput =
    definition.schema.body !== undefined ||
    definition.schema.query !== undefined ||
    definition.schema.params !== undefined;
  if (hasInput)
    responses['422'] = errorResponse(
      'Invalid input (schema violation or malformed JSON); `field` names the culprit',
    );
  if (definition.schema.body !== undefined)
    responses['413'] = errorResponse('Request body over the size limit');
  const secured = definition.auth !== 'open';
  if (secured) {
    responses['401'] = errorResponse(
      'Missing, invalid or expired bearer token (when authentication is enabled)',
    );
    responses['403'] = errorResponse('Account disabled');
  }
  responses['500'] = errorResponse('Unexpected error; the cause is logged by the host');
  const operation: Json = {
    operationId: `${route.owner}_${definition.method.toLowerCase()}_${definition.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
    summary: definition.summary,
    description: [definition.description ?? '', aliasNote(definition.path)]
      .filter((part) => part !== '')
      .join('\n\n'),
    tags: definition.tags ?? [route.owner],
    parameters: [
      ...parametersOf(definition.schema.params, 'path'),
      ...parametersOf(definition.schema.query, 'query'),
    ],
    responses,
    security: secured ? [{ bearerAuth: [] }] : [],
  };
  if (definition.deprecated === true) operation.deprecated = true;
  if (definition.schema.body !== undefined) {
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: plain(definition.schema.body) } },
    };
  }
  return operation;
}

function streamOperation(stream: RegisteredStream): Json {
  const { definition } = stream;
  const secured = definition.auth !== 'open';
  const parameters = parametersOf(definition.query, 'query');
  if (secured) {
    parameters.push({
      name: 'token',
      in: 'query',
      required: false,
      schema: { type: 'string' },
      description:
        'Access token (required when authentication is enabled); a missing or bad token closes the socket with code 1008.',
    });
  }
  return {
    operationId: `${stream.owner}_stream_${definition.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
    summary: `${definition.summary} (WebSocket)`,
    description: [
      definition.description ?? '',
      `WebSocket stream. Send \`ping\` (or \`{"type":"ping"}\`) to get \`pong\`. Slow clients: \`${definition.overflow}\` policy.`,
      aliasNote(definition.path),
    ]
      .filter((part) => part !== '')
      .join('\n\n'),
    tags: [stream.owner],
    parameters,
    responses: {
      '101': {
        description: 'Switching Protocols; the server then sends messages of this schema',
        content: { 'application/json': { schema: plain(definition.message) } },
      },
    },
    security: secured ? [{ bearerAuth: [] }] : [],
    'x-websocket': true,
  };
}

function proxyOperation(proxy: RegisteredProxy): Json {
  const { definition } = proxy;
  const secured = definition.auth !== 'open';
  return {
    operationId: `${proxy.owner}_proxy_${definition.prefix.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
    summary: `${definition.summary} (reverse proxy)`,
    description: `Every method, and WebSocket upgrades, under \`${definition.prefix}/<key>/\` are forwarded to the service behind \`key\` (bodies stream both ways). With authentication enabled send the bearer token, or \`?token=\` where a header cannot be set.`,
    tags: [proxy.owner],
    parameters: [
      { name: 'key', in: 'path', required: true, schema: { type: 'string' } },
      {
        name: 'path',
        in: 'path',
        required: true,
        schema: { type: 'string' },
        description: 'The rest of the upstream path',
      },
    ],
    responses: proxyResponses(secured),
    security: secured ? [{ bearerAuth: [] }] : [],
  };
}

function proxyResponses(secured: boolean): Json {
  const responses: Json = {
    '200': { description: 'The upstream answer, as is (any status and content type)' },
    '404': errorResponse('Unknown key, or proxying is off'),
    '502': errorResponse('The upstream is unreachable'),
    '500': errorResponse('The proxy failed; the cause is logged by the host'),
  };
  if (secured) {
    responses['401'] = errorResponse('Missing, invalid or expired token');
    responses['403'] = errorResponse('Account disabled');
  }
  addPipelineAnswers(responses);
  return responses;
}

/** Build the document. */
export function buildOpenApi(input: OpenApiInput): Json {
  const paths: Record<string, Json> = {};
  for (const route of input.routes) {
    const path = toOpenApiPath(route.definition.path);
    paths[path] = {
      ...(paths[path] ?? {}),
      [route.definition.method.toLowerCase()]: operationOf(route),
    };
  }
  for (const stream of input.streams) {
    paths[stream.definition.path] = {
      ...(paths[stream.definition.path] ?? {}),
      get: streamOperation(stream),
    };
  }
  for (const proxy of input.proxies)
    paths[`${proxy.definition.prefix}/{key}/{path}`] = { get: proxyOperation(proxy) };
  const tagNames = new Set<string>();
  for (const route of input.routes)
    for (const tag of route.definition.tags ?? [route.owner]) tagNames.add(tag);
  for (const stream of input.streams) tagNames.add(stream.owner);
  return {
    openapi: '3.1.0',
    info: { title: input.title, version: input.version, description: input.description },
    servers: [{ url: '/' }],
    tags: [...tagNames].sort().map((name) => ({
      name,
      description: input.tagDescriptions[name] ?? `Routes of the ${name} plugin`,
    })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => compareText(a, b))),
    components: {
      schemas: { ErrorBody: plain(ErrorBody) },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}
