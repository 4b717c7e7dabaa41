/**
 * A handler's result as a response: a bare body (200), a JSON reply with its status and headers,
 * or a raw reply; checked against the route's response schemas while response validation is on
 * (the test suite), where an undeclared or drifting body is answered 500 instead.
 */
import type { JsonReply, RawReply } from '../../sdk/http.js';
import type { Logger } from '../../sdk/logger.js';
import { joinParts } from './body-parts.js';
import { errorBody } from './error-mapper.js';
import { NO_HEADERS, writeJson } from './json-response.js';
import type { RequestSnapshot } from './request-snapshot.js';
import type { ResponseState } from './response-state.js';
import { isParts, writeResponse } from './response-writer.js';
import type { RegisteredRoute } from './route-table.js';

/** What answering a result needs from the pipeline's environment. */
export interface AnswerEnvironment {
  readonly logger: Logger;
  readonly validateResponses: boolean;
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

/**
 * Answer `result`. Synchronous for every complete body; a promise only for a streamed raw body.
 */
export function sendResult(
  route: RegisteredRoute,
  env: AnswerEnvironment,
  state: ResponseState,
  result: unknown,
  snapshot: RequestSnapshot,
): Promise<unknown> | undefined {
  const reply = isReply(result) ? result : undefined;
  if (reply?.kind === 'raw') {
    const text = env.validateResponses ? jsonText(reply) : undefined;
    if (text !== undefined && refuseInvalid(route, env, state, snapshot, reply.status, text))
      return undefined;
    const written = writeResponse(state, {
      status: reply.status,
      headers: reply.headers,
      body: reply.body,
    });
    return written instanceof Promise ? written : undefined;
  }
  const status = reply === undefined ? 200 : reply.status;
  const body = reply === undefined ? result : reply.body;
  if (env.validateResponses && refuseInvalid(route, env, state, snapshot, status, { body }))
    return undefined;
  writeJson(state, status, body, reply?.headers ?? NO_HEADERS);
  return undefined;
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
function refuseInvalid(
  route: RegisteredRoute,
  env: AnswerEnvironment,
  state: ResponseState,
  snapshot: RequestSnapshot,
  status: number,
  response: { body: unknown } | { unparsable: string },
): boolean {
  const schema = route.responses.get(status);
  if (schema === undefined && status < 300) {
    env.logger.error(
      `${snapshot.method} ${snapshot.path}: no response schema for status ${status}`,
    );
    writeJson(
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
  writeJson(
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
