/**
 * What the fuzzer reads from `/openapi.json`: every operation (method, path template, path and
 * query parameters with their schemas, the body schema) and every WebSocket stream.
 */

/** A JSON schema as the document carries it (only the keywords the generator reads). */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly patternProperties?: Readonly<Record<string, JsonSchema>>;
  readonly items?: JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minItems?: number;
  readonly default?: unknown;
}

/** One path or query parameter. */
export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly schema: JsonSchema;
}

/** One HTTP operation or WebSocket stream of the document. */
export interface Operation {
  readonly method: string;
  /** The OpenAPI path template, e.g. `/api/auth/users/{username}`. */
  readonly path: string;
  readonly parameters: readonly Parameter[];
  readonly body: JsonSchema | undefined;
  /** The document says a bearer token is needed. */
  readonly secured: boolean;
  readonly websocket: boolean;
}

interface DocOperation {
  readonly parameters?: readonly {
    name: string;
    in: string;
    required?: boolean;
    schema?: JsonSchema;
  }[];
  readonly requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  readonly security?: readonly Record<string, unknown>[];
  readonly 'x-websocket'?: boolean;
}

const METHODS = new Set(['get', 'post', 'put', 'delete', 'patch', 'head', 'options']);

/** Every operation and stream of an OpenAPI 3.1 document, in document order. */
export function operationsOf(document: unknown): Operation[] {
  const paths = (document as { paths?: Record<string, Record<string, DocOperation>> }).paths;
  if (paths === undefined) throw new Error('the OpenAPI document has no paths');
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!METHODS.has(method)) continue;
      const parameters: Parameter[] = (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'path' || parameter.in === 'query')
        .map((parameter) => ({
          name: parameter.name,
          in: parameter.in as 'path' | 'query',
          required: parameter.required === true || parameter.in === 'path',
          schema: parameter.schema ?? {},
        }));
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters,
        body: operation.requestBody?.content?.['application/json']?.schema,
        secured: (operation.security ?? []).length > 0,
        websocket: operation['x-websocket'] === true,
      });
    }
  }
  return operations;
}

/** `METHOD /path` for messages. */
export function operationLabel(operation: Operation): string {
  return `${operation.method} ${operation.path}`;
}

/**
 * Routes that must answer without a token while authentication is enabled (docs/decisions.md §9), by
 * their path without the `/api` prefix. Everything else refuses an anonymous caller.
 */
export function isOpenPath(path: string): boolean {
  const bare = path.replace(/^\/api(?=\/)/, '').replace(/\/$/, '');
  return (
    [
      '/health',
      '/auth/status',
      '/auth/login',
      '/auth/refresh',
      '/auth/verify',
      '/auth/setup',
      '/docs',
      '/redoc',
      '/openapi.json',
    ].includes(bare) || bare.startsWith('/docs/assets/')
  );
}
