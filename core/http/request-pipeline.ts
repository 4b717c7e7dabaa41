/**
 * The request pipeline for one route: abort tracking, request copy, body read with a limit,
 * authentication, validation (422 naming the field), the handler, response validation (in tests)
 * and the response. Nothing here may throw into uWS: every path ends in a written response or a
 * logged error.
 */
import type { AuthenticationResult } from '../../sdk/contracts/authenticator.js';
import type { HandlerRequest, HttpMethod, JsonReply, Principal, RawReply } from '../../sdk/http.js';
import type { Logger } from '../../sdk/logger.js';
import type { Authenticate } from './authenticate.js';
import type { ClientAddresses } from './client-address.js';
import type { StorageStatus } from '../storage/storage-status.js';
import { declaredContentLength, readBody, type BodyResult } from './body-reader.js';
import { errorBody, mapError } from './error-mapper.js';
import { snapshotRequest, type RequestSnapshot } from './request-snapshot.js';
import { framingRefusal, refuseFraming } from './request-framing.js';
import { ResponseState } from './response-state.js';
import { joinParts } from './body-parts.js';
import { isParts, writeResponse } from './response-writer.js';
import type { RegisteredRoute } from './route-table.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';
import { parseInputs } from './request-inputs.js';
import { NO_HEADERS, sendJson } from './json-response.js';
import { SCRAPE_TOKEN_PREFIX } from '../../sdk/exposition.js';

/** What the pipeline needs from the host. */
export interface PipelineEnvironment {
  readonly logger: Logger;
  /** Null when no authenticator is provided (everything open). */
  readonly authenticate: Authenticate | null;
  readonly defaultBodyLimit: number;
  /** Validate responses against their schemas (tests turn this on). */
  readonly validateResponses: boolean;
  /** Aborted when the host stops. */
  readonly shutdownSignal: AbortSignal;
  /** Who the client is (trusted proxies applied). */
  readonly addresses: ClientAddresses;
  /** The data dir's condition: storage failures answer 507/503 and are noted for /health. */
  readonly storage?: StorageStatus;
  /** Told about every answered request by route template (the exposition's HTTP series). */
  readonly observeRequest?: (
    method: string,
    route: string,
    status: number,
    seconds: number,
  ) => void;
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Shared answers for the common cases: no per-request allocation.
const NO_BODY: BodyResult = { kind: 'ok', body: Buffer.alloc(0) };
const OPEN: AuthenticationResult = { ok: true, principal: null };

/** A uWS handler for one route. */
export function createRouteHandler(route: RegisteredRoute, env: PipelineEnvironment) {
  return (res: HttpResponse, req: HttpRequest): void => {
    const state = new ResponseState(res);
    const observe = env.observeRequest;
    if (observe !== undefined) {
      const started = performance.now();
      const { method, path } = route.definition;
      state.whenFinished((status) =>
        observe(method, path, status, (performance.now() - started) / 1000),
      );
    }
    const snapshot = snapshotRequest(req, state, route.paramNames, env.addresses);
    const framing = framingRefusal(snapshot.path, snapshot.headers);
    if (framing !== null) {
      refuseFraming(state, framing).catch((error: unknown) => {
        env.logger.error('response failed', { path: snapshot.path, error });
      });
      return;
    }
    if (snapshot.malformed !== null) {
      refuseMalformed(state, snapshot.malformed).catch((error: unknown) => {
        env.logger.error('response failed', { path: snapshot.path, error });
      });
      return;
    }
    // Authenticate before reading the body: a refusal known at once (no token) is answered
    // without attaching onData, so uWS drops the body unread.
    const auth = authenticate(route, env, snapshot);
    if (!(auth instanceof Promise) && !auth.ok) {
      refuse(state, auth).catch((error: unknown) => {
        env.logger.error('response failed', { path: snapshot.path, error });
      });
      return;
    }
    // onData must be attached before this callback returns, or the body is lost.
    const body = METHODS_WITH_BODY.has(snapshot.method)
      ? readBody(
          state,
          route.definition.bodyLimit ?? env.defaultBodyLimit,
          declaredContentLength(snapshot.headers['content-length']),
        )
      : NO_BODY;
    handle(route, env, state, snapshot, body, auth).catch((error: unknown) => {
      env.logger.error('response failed', { path: snapshot.path, error });
    });
  };
}

/**
 * What a handler receives. A class, not an object literal with getters: V8 builds a literal's
 * accessors at run time, in dictionary mode, on every request.
 */
class PipelineRequest implements HandlerRequest {
  private abortSignal: AbortSignal | undefined;

  constructor(
    private readonly snapshot: RequestSnapshot,
    readonly params: Record<string, string>,
    readonly query: Record<string, string>,
    readonly body: unknown,
    readonly principal: Principal | null,
    private readonly state: ResponseState,
    private readonly shutdownSignal: AbortSignal,
  ) {}

  get method(): HttpMethod {
    return this.snapshot.method as HttpMethod;
  }

  get path(): string {
    return this.snapshot.path;
  }

  get headers(): Readonly<Record<string, string>> {
    return this.snapshot.headers;
  }

  get ip(): string {
    return this.snapshot.ip;
  }

  // Made on first use: few handlers watch for aborts, and a signal per request is costly.
  get signal(): AbortSignal {
    this.abortSignal ??= AbortSignal.any([this.state.signal, this.shutdownSignal]);
    return this.abortSignal;
  }
}

async function handle(
  route: RegisteredRoute,
  env: PipelineEnvironment,
  state: ResponseState,
  snapshot: RequestSnapshot,
  bodyPending: BodyResult | Promise<BodyResult>,
  authPending: AuthenticationResult | Promise<AuthenticationResult>,
): Promise<void> {
  // Only what is pending is awaited: a request with no body, an open route and a synchronous
  // handler is answered within uWS's own callback, without a turn through the microtask queue.
  try {
    const bodyResult = bodyPending instanceof Promise ? await bodyPending : bodyPending;
    if (bodyResult.kind === 'aborted') return;
    if (bodyResult.kind === 'too-large') {
      await sendJson(
        state,
        413,
        errorBody(
          `Request body exceeds the limit of ${bodyResult.limit} bytes`,
          'REQUEST_BODY_TOO_LARGE',
          'body',
        ),
        {},
        bodyResult.closeConnection,
      );
      return;
    }
    const auth = authPending instanceof Promise ? await authPending : authPending;
    if (!auth.ok) {
      await refuse(state, auth);
      return;
    }
    const parsed = parseInputs(route, snapshot, bodyResult.body);
    if (!parsed.ok) {
      await sendJson(state, 422, errorBody(parsed.detail, parsed.code, parsed.field));
      return;
    }
    const request = new PipelineRequest(
      snapshot,
      parsed.params as Record<string, string>,
      parsed.query as Record<string, string>,
      parsed.body,
      auth.principal,
      state,
      env.shutdownSignal,
    );
    const returned: unknown = route.definition.handler(request);
    const result: unknown = returned instanceof Promise ? await returned : returned;
    if (state.finished) return;
    await sendResult(route, env, state, result, snapshot);
  } catch (error) {
    if (state.finished) return;
    const mapped = mapError(error, env.logger, `${snapshot.method} ${snapshot.path}`, env.storage);
    await sendJson(state, mapped.status, mapped.body, mapped.headers);
  }
}

function authenticate(
  route: RegisteredRoute,
  env: PipelineEnvironment,
  snapshot: RequestSnapshot,
): AuthenticationResult | Promise<AuthenticationResult> {
  if (env.authenticate === null) return OPEN;
  // A scrape token is refused outside the exposition even on open routes and with
  // authentication off: it must never pass where anything else is read or changed.
  if (route.definition.auth === 'open' && !isScrapeCredential(snapshot.headers.authorization))
    return OPEN;
  return env.authenticate({
    token: bearerToken(snapshot.headers.authorization),
    ip: snapshot.ip,
    path: snapshot.path,
    method: snapshot.method,
    transport: 'http',
  });
}

function isScrapeCredential(header: string | undefined): boolean {
  return header !== undefined && header.includes(SCRAPE_TOKEN_PREFIX);
}

/** 400 for a path parameter or query whose percent-encoding is malformed. */
export function refuseMalformed(state: ResponseState, field: string): Promise<void> {
  const where = field === 'query' ? 'the query string' : `path parameter '${field}'`;
  return sendJson(
    state,
    400,
    errorBody(`Malformed percent-encoding in ${where}`, 'REQUEST_MALFORMED_ENCODING', field),
  );
}

function refuse(
  state: ResponseState,
  auth: Extract<AuthenticationResult, { ok: false }>,
): Promise<void> {
  return sendJson(state, auth.status, errorBody(auth.detail, auth.code), {
    'www-authenticate': 'Bearer',
  });
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

function isReply(value: unknown): value is JsonReply | RawReply {
  return (
    typeof value === 'object' &&
    value !== null &&
    'kind' in value &&
    ((value as JsonReply).kind === 'json' || (value as RawReply).kind === 'raw') &&
    'status' in value
  );
}

async function sendResult(
  route: RegisteredRoute,
  env: PipelineEnvironment,
  state: ResponseState,
  result: unknown,
  snapshot: RequestSnapshot,
): Promise<void> {
  if (isReply(result) && result.kind === 'raw') {
    const text = env.validateResponses ? jsonText(result) : undefined;
    if (
      text !== undefined &&
      (await refuseInvalid(route, env, state, snapshot, result.status, text))
    )
      return;
    await writeResponse(state, {
      status: result.status,
      headers: result.headers,
      body: result.body,
    });
    return;
  }
  const status = isReply(result) ? result.status : 200;
  const body = isReply(result) ? result.body : result;
  const headers = isReply(result) ? (result.headers ?? NO_HEADERS) : NO_HEADERS;
  if (env.validateResponses && (await refuseInvalid(route, env, state, snapshot, status, { body })))
    return;
  await sendJson(state, status, body, headers);
}

/** The parsed body of a raw reply whose JSON is written already (see `jsonTextReply`). */
function jsonText(reply: RawReply): { body: unknown } | { unparsable: string } | undefined {
  const { body } = reply;
  if (!reply.headers['content-type']?.startsWith('application/json')) return undefined;
  if (typeof body !== 'string' && !isParts(body)) return undefined;
  const text = typeof body === 'string' ? body : Buffer.from(joinParts(body)).toString('utf8');
  try {
    return { body: JSON.parse(text) as unknown };
  } catch (error) {
    return { unparsable: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * While response validation is on (the test suite): answer 500 instead of a body its route does
 * not declare, or that does not match the declared schema. True when it answered.
 */
async function refuseInvalid(
  route: RegisteredRoute,
  env: PipelineEnvironment,
  state: ResponseState,
  snapshot: RequestSnapshot,
  status: number,
  response: { body: unknown } | { unparsable: string },
): Promise<boolean> {
  const schema = route.responses.get(status);
  if (schema === undefined && status < 300) {
    env.logger.error(
      `${snapshot.method} ${snapshot.path}: no response schema for status ${status}`,
    );
    await sendJson(
      state,
      500,
      errorBody(`No response schema for status ${status}`, 'INTERNAL_RESPONSE_UNDECLARED'),
    );
    return true;
  }
  const failure =
    'unparsable' in response
      ? { field: 'body', message: `not JSON: ${response.unparsable}` }
      : schema?.firstError(response.body);
  if (failure === undefined) return false;
  env.logger.error(`${snapshot.method} ${snapshot.path}: response does not match its schema`, {
    ...failure,
  });
  await sendJson(
    state,
    500,
    errorBody(
      `Response field '${failure.field}' does not match its schema: ${failure.message}`,
      'INTERNAL_RESPONSE_INVALID',
      failure.field,
    ),
  );
  return true;
}
