/**
 * The request pipeline for one route: request copy, framing checks, authentication, body read
 * with a limit, validation (422 naming the field), the handler, response validation (in tests)
 * and the response. Nothing here may throw into uWS: every path ends in a written response or a
 * logged error.
 *
 * Everything that is the same for every request of a route is worked out once (its HTTP series,
 * its inputs, its body limit), and a request that needs nothing asynchronous (no body, an open
 * or synchronously checked route, a synchronous handler) is answered within uWS's own callback:
 * no promise, no abort handler, no cork of its own.
 */
import type { AuthenticationResult } from '../../sdk/contracts/authenticator.js';
import type { Logger } from '../../sdk/logger.js';
import type { Authenticate } from './authenticate.js';
import type { ClientAddresses } from './client-address.js';
import type { StorageStatus } from '../storage/storage-status.js';
import { declaredContentLength, readBody, type BodyResult } from './body-reader.js';
import { errorBody, mapError } from './error-mapper.js';
import { snapshotRequest, type KnownByRoute, type RequestSnapshot } from './request-snapshot.js';
import { framingRefusal, refuseFraming } from './request-framing.js';
import { ResponseState, type FinishObserver } from './response-state.js';
import type { RegisteredRoute } from './route-table.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';
import { RouteInputs } from './request-inputs.js';
import { PipelineRequest } from './pipeline-request.js';
import { sendJson, writeJson } from './json-response.js';
import { sendResult } from './route-answer.js';
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
  /** The exposition's HTTP series of a route template, told about every answered request. */
  readonly requestSeries?: (method: string, route: string) => FinishObserver;
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Shared answers for the common cases: no per-request allocation.
const NO_BODY: BodyResult = { kind: 'ok', body: Buffer.alloc(0) };
const OPEN: AuthenticationResult = { ok: true, principal: null };

/** What every request of one route shares. */
interface RouteRuntime {
  readonly route: RegisteredRoute;
  readonly env: PipelineEnvironment;
  readonly inputs: RouteInputs;
  readonly bodyLimit: number;
  readonly series: FinishObserver | undefined;
}

/** A uWS request handler. */
export type UwsHandler = (res: HttpResponse, req: HttpRequest) => void;

/** The uWS handlers of one route, one per served path. */
export function createRouteHandlers(
  route: RegisteredRoute,
  env: PipelineEnvironment,
): Array<{ readonly path: string; readonly handler: UwsHandler }> {
  const runtime: RouteRuntime = {
    route,
    env,
    inputs: new RouteInputs(route),
    bodyLimit: route.definition.bodyLimit ?? env.defaultBodyLimit,
    series: env.requestSeries?.(route.definition.method, route.definition.path),
  };
  const { method } = route.definition;
  return route.paths.map((path) => ({
    path,
    handler: createHandler(runtime, {
      method,
      path: route.paramNames.length === 0 && !path.includes('*') ? path : undefined,
    }),
  }));
}

function createHandler(runtime: RouteRuntime, known: KnownByRoute): UwsHandler {
  const { route, env, series } = runtime;
  return (res, req) => {
    const state = ResponseState.inCallback(res);
    if (series !== undefined) state.observeWith(series, performance.now());
    let path = known.path ?? '';
    try {
      const snapshot = snapshotRequest(req, state, route.paramNames, env.addresses, known);
      path = snapshot.path;
      answer(runtime, state, snapshot)?.catch((error: unknown) => {
        env.logger.error('response failed', { path, error });
      });
    } catch (error) {
      env.logger.error('response failed', { path, error });
    } finally {
      // uWS needs an abort handler for a response still open when its callback returns.
      state.leaveCallback();
    }
  };
}

/** Answer one request; a promise only when something had to be waited for. */
function answer(
  runtime: RouteRuntime,
  state: ResponseState,
  snapshot: RequestSnapshot,
): Promise<unknown> | undefined {
  const framing = framingRefusal(snapshot.path, snapshot.headers, snapshot.headerBytes);
  if (framing !== null) return refuseFraming(state, framing);
  if (snapshot.malformed !== null) return refuseMalformed(state, snapshot.malformed);
  // Authenticate before reading the body: a refusal known at once (no token) is answered
  // without attaching onData, so uWS drops the body unread.
  const auth = authenticate(runtime.route, runtime.env, snapshot);
  if (!(auth instanceof Promise) && !auth.ok) return refuse(state, auth);
  // onData must be attached before uWS's callback returns, or the body is lost.
  const body = METHODS_WITH_BODY.has(snapshot.method)
    ? readBody(state, runtime.bodyLimit, declaredContentLength(snapshot.headers['content-length']))
    : NO_BODY;
  if (body instanceof Promise || auth instanceof Promise)
    return handleLater(runtime, state, snapshot, body, auth);
  if (refusedBody(state, body)) return undefined;
  return handle(runtime, state, snapshot, body.body, auth);
}

/** Answered when the body was aborted or too large (true), else false. */
function refusedBody(
  state: ResponseState,
  result: BodyResult,
): result is Exclude<BodyResult, { kind: 'ok' }> {
  if (result.kind === 'aborted') return true;
  if (result.kind === 'too-large') {
    writeJson(
      state,
      413,
      errorBody(
        `Request body exceeds the limit of ${result.limit} bytes`,
        'REQUEST_BODY_TOO_LARGE',
        'body',
      ),
      {},
      result.closeConnection,
    );
    return true;
  }
  return false;
}

/** Wait for the body, then for the authentication, then handle. */
async function handleLater(
  runtime: RouteRuntime,
  state: ResponseState,
  snapshot: RequestSnapshot,
  bodyPending: BodyResult | Promise<BodyResult>,
  authPending: AuthenticationResult | Promise<AuthenticationResult>,
): Promise<void> {
  let rawBody: Buffer;
  let auth: AuthenticationResult;
  try {
    const bodyResult = await bodyPending;
    if (refusedBody(state, bodyResult)) return;
    rawBody = bodyResult.body;
    auth = await authPending;
  } catch (error) {
    answerError(runtime.env, state, snapshot, error);
    return;
  }
  await handle(runtime, state, snapshot, rawBody, auth);
}

/** Validate, run the handler and answer; a promise only for an asynchronous handler or body. */
function handle(
  runtime: RouteRuntime,
  state: ResponseState,
  snapshot: RequestSnapshot,
  rawBody: Buffer,
  auth: AuthenticationResult,
): Promise<unknown> | undefined {
  const { route, env } = runtime;
  try {
    if (!auth.ok) {
      writeRefusal(state, auth);
      return undefined;
    }
    const parsed = runtime.inputs.parse(snapshot, rawBody);
    if (!parsed.ok) {
      writeJson(state, 422, errorBody(parsed.detail, parsed.code, parsed.field));
      return undefined;
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
    if (returned instanceof Promise) return answerLater(runtime, state, snapshot, returned);
    if (state.finished) return undefined;
    return sendResult(route, env, state, returned, snapshot)?.catch((error: unknown) => {
      answerError(env, state, snapshot, error);
    });
  } catch (error) {
    answerError(env, state, snapshot, error);
    return undefined;
  }
}

async function answerLater(
  runtime: RouteRuntime,
  state: ResponseState,
  snapshot: RequestSnapshot,
  returned: Promise<unknown>,
): Promise<void> {
  try {
    const result: unknown = await returned;
    if (state.finished) return;
    await sendResult(runtime.route, runtime.env, state, result, snapshot);
  } catch (error) {
    answerError(runtime.env, state, snapshot, error);
  }
}

/** A thrown error as its mapped answer (nothing when the response ended already). */
function answerError(
  env: PipelineEnvironment,
  state: ResponseState,
  snapshot: RequestSnapshot,
  error: unknown,
): void {
  if (state.finished) return;
  const mapped = mapError(error, env.logger, `${snapshot.method} ${snapshot.path}`, env.storage);
  writeJson(state, mapped.status, mapped.body, mapped.headers);
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
  return sendJson(state, auth.status, errorBody(auth.detail, auth.code), BEARER_CHALLENGE);
}

function writeRefusal(
  state: ResponseState,
  auth: Extract<AuthenticationResult, { ok: false }>,
): void {
  writeJson(state, auth.status, errorBody(auth.detail, auth.code), BEARER_CHALLENGE);
}

const BEARER_CHALLENGE = { 'www-authenticate': 'Bearer' } as const;

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
