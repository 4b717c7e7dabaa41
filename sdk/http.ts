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
  /**
   * What the credential may reach when narrower than a user's (`exposition`: a scrape token,
   * which reads the Prometheus exposition and nothing else). Absent for a user's own token.
   */
  readonly scope?: string;
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
export interface JsonReply<Status extends number = number, Body = unknown> {
  readonly kind: 'json';
  readonly status: Status;
  readonly body: Body;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A body given in parts, sent in order as one body. */
export type BodyParts = readonly (string | Uint8Array)[];

/** A non-JSON reply (HTML, CSS, a file) or a streamed body. */
export interface RawReply {
  readonly kind: 'raw';
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Small bodies as bytes or text; large ones as an async stream of chunks, or, when the whole
   * body is at hand, as parts sent as one (with a content-length) without first being joined
   * into one large string: text over 128 KiB costs V8 a fresh memory mapping per string.
   */
  readonly body: string | Uint8Array | BodyParts | AsyncIterable<Uint8Array>;
}

/** The response schemas of a route by status (a single schema means 200). */
type ResponsesOf<S extends RouteSchema> = S['response'] extends TSchema
  ? { readonly 200: S['response'] }
  : S['response'];

/** A reply for one of the statuses the route declares, its body typed by that status's schema. */
type DeclaredReply<S extends RouteSchema> = {
  [Status in keyof ResponsesOf<S> & number]: ResponsesOf<S>[Status] extends TSchema
    ? JsonReply<Status, Static<ResponsesOf<S>[Status]>>
    : never;
}[keyof ResponsesOf<S> & number];

/** The body of a plain (status 200) return: the 200 schema's type, when one is declared. */
type OkBody<S extends RouteSchema> = 200 extends keyof ResponsesOf<S>
  ? ResponsesOf<S>[200] extends TSchema
    ? Static<ResponsesOf<S>[200]>
    : never
  : never;

/**
 * What a handler may return, typed from its `schema.response`: the 200 body as a plain value,
 * `reply(status, body)` for another declared status (its body checked against that status's
 * schema), or a raw reply (HTML, files). A shape the schema does not declare is a compile error.
 * Returning the same object again (a cached view) reuses its JSON text, so never mutate an
 * object after returning it: build a new one instead.
 */
export type HandlerResult<S extends RouteSchema = RouteSchema> =
  OkBody<S> | DeclaredReply<S> | RawReply;

/** Build a JSON reply with a given status (checked against the route's schema for it). */
export function reply<const Status extends number, Body>(
  status: Status,
  body: Body,
  headers?: Readonly<Record<string, string>>,
): JsonReply<Status, Body> {
  return headers === undefined
    ? { kind: 'json', status, body }
    : { kind: 'json', status, body, headers };
}

/** The content type of every JSON answer. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON reply whose text is already written: as one string, or as parts when it is too large to
 * join into one string first. While response validation is on, core parses it and checks it
 * against the route's schema for the status, as it does for a JSON reply.
 */
export function jsonTextReply(status: number, text: string | BodyParts): RawReply {
  return rawReply(status, { 'content-type': JSON_CONTENT_TYPE }, text);
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
  /** The route's own path; `:name` segments are path parameters. Core adds the `/api` aliases. */
  readonly path: string;
  /** Defaults to `required`. */
  readonly auth?: AuthMode;
  /** One line for the OpenAPI document. */
  readonly summary: string;
  readonly description?: string;
  /** OpenAPI tags; defaults to the plugin name. */
  readonly tags?: readonly string[];
  /** Marks an earlier-generation alias (docs/decisions.md §5). */
  readonly deprecated?: boolean;
  /** A capability flag this route's existence turns on (declared in the plugin's capabilities). */
  readonly capability?: string;
  /** Maximum request body in bytes; core's default applies otherwise. */
  readonly bodyLimit?: number;
  readonly schema: S;
  readonly handler: (request: HandlerRequest<S>) => Promise<HandlerResult<S>> | HandlerResult<S>;
}

/** Every key of every member of a union of object types. */
type AllKeys<T> = T extends object ? keyof T : never;

/**
 * Keys a returned plain object carries that its 200 schema does not declare (top level). A
 * returned object literal is not checked for excess properties by TypeScript itself, since a
 * function's return type is inferred first, so routes check it here.
 */
type UndeclaredKeys<R, S extends RouteSchema> = R extends RawReply | JsonReply
  ? never
  : R extends readonly unknown[]
    ? never
    : R extends object
      ? Exclude<keyof R, AllKeys<OkBody<S>>>
      : never;

/**
 * A route whose handler returns `R`: accepted when `R` is a declared result and adds no field
 * the schema lacks; otherwise the compiler asks for an `undeclared_fields` property naming them.
 */
export type CheckedRoute<S extends RouteSchema, R> = RouteDefinition<S> & {
  readonly handler: (request: HandlerRequest<S>) => Promise<R> | R;
} & ([UndeclaredKeys<R, S>] extends [never]
    ? unknown
    : { readonly undeclared_fields: UndeclaredKeys<R, S> });

/** Define a route with its handler typed from its schema (an identity helper for inference). */
export function defineRoute<S extends RouteSchema, R extends HandlerResult<S>>(
  route: CheckedRoute<S, R>,
): RouteDefinition<S> {
  return route;
}

/**
 * A route with its schema types erased, as the route table stores it. The handler was checked
 * against its schema where the route was declared; core only passes validated requests in.
 */
export type AnyRouteDefinition = Omit<RouteDefinition, 'handler'> & {
  readonly handler: (request: HandlerRequest) => unknown;
};

/** Erase a typed route for storage next to routes of other schemas. */
export function eraseRoute<S extends RouteSchema>(route: RouteDefinition<S>): AnyRouteDefinition {
  return route;
}
