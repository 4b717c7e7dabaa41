/**
 * Route declarations. A plugin describes a route (method, path, schemas, handler) and core does
 * the rest: validation compiled once, auth, the `/api` aliases, error mapping and OpenAPI.
 */
import type { Static, TObject, TSchema } from '@sinclair/typebox';

/** HTTP methods a route may answer. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route or open a stream. `required` (the default) asks the authenticator
 * service for a bearer access token when authentication is enabled; `open` never does.
 */
export type AuthMode = 'required' | 'open';

/** The authenticated caller, when authentication is enabled and the route needs it. */
export interface Principal {
  /** The username (the JWT `sub`). */
  readonly username: string;
}

/** Request schemas of a route. Every part is optional; `response` maps status → schema. */
export interface RouteSchema {
  /** Path parameters (`/ai/profiles/:profile_id` → `{ profile_id }`). */
  readonly params?: TObject;
  /** Query string; values are coerced to the schema's types before validation. */
  readonly query?: TObject;
  /** JSON request body. */
  readonly body?: TSchema;
  /** Success responses by status code (200 when a single schema is given). */
  readonly response: TSchema | Readonly<Record<number, TSchema>>;
}

type StaticOr<T, Fallback> = T extends TSchema ? Static<T> : Fallback;

/** The plain, copied request a handler receives: never a uWS object. */
export interface HandlerRequest<S extends RouteSchema = RouteSchema> {
  readonly method: HttpMethod;
  /** The path as requested (without the query string). */
  readonly path: string;
  readonly params: StaticOr<S['params'], Record<string, string>>;
  readonly query: StaticOr<S['query'], Record<string, string>>;
  readonly body: StaticOr<S['body'], undefined>;
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Client address as text. */
  readonly ip: string;
  /** The caller, or null when the route is open or authentication is off. */
  readonly principal: Principal | null;
  /** Aborted when the client goes away or the host stops. */
  readonly signal: AbortSignal;
}

/** A JSON reply with a status other than 200, or extra headers. */
export interface JsonReply {
  readonly kind: 'json';
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A non-JSON reply (HTML, CSS, a file) or a streamed body. */
export interface RawReply {
  readonly kind: 'raw';
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Small bodies as bytes or text; large ones as an async stream of chunks. */
  readonly body: string | Uint8Array | AsyncIterable<Uint8Array>;
}

/**
 * What a handler may return: a plain value (JSON, status 200) or an explicit reply. Returning
 * the same object again (a cached view) reuses its JSON text, so never mutate an object after
 * returning it: build a new one instead.
 */
export type HandlerResult = JsonReply | RawReply | object | string | number | boolean | null;

/** Build a JSON reply with a given status. */
export function reply(
  status: number,
  body: unknown,
  headers?: Readonly<Record<string, string>>,
): JsonReply {
  return headers === undefined
    ? { kind: 'json', status, body }
    : { kind: 'json', status, body, headers };
}

/** Build a raw reply (HTML, static assets, streamed files). */
export function rawReply(
  status: number,
  headers: Readonly<Record<string, string>>,
  body: RawReply['body'],
): RawReply {
  return { kind: 'raw', status, headers, body };
}

/** A route a plugin declares with `ctx.route(...)`. */
export interface RouteDefinition<S extends RouteSchema = RouteSchema> {
  readonly method: HttpMethod;
  /** SPEC path; `:name` segments are path parameters. Core adds the `/api` aliases. */
  readonly path: string;
  /** Defaults to `required`. */
  readonly auth?: AuthMode;
  /** One line for the OpenAPI document. */
  readonly summary: string;
  readonly description?: string;
  /** OpenAPI tags; defaults to the plugin name. */
  readonly tags?: readonly string[];
  /** Marks an earlier-generation alias (DECISIONS #5). */
  readonly deprecated?: boolean;
  /** A capability flag this route's existence turns on (declared in the plugin's capabilities). */
  readonly capability?: string;
  /** Maximum request body in bytes; core's default applies otherwise. */
  readonly bodyLimit?: number;
  readonly schema: S;
  readonly handler: (request: HandlerRequest<S>) => Promise<HandlerResult> | HandlerResult;
}

/** Define a route with its handler typed from its schema (an identity helper for inference). */
export function defineRoute<S extends RouteSchema>(route: RouteDefinition<S>): RouteDefinition<S> {
  return route;
}
