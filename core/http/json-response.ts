/** JSON answers: the content type, and serialization reused for a body returned again. */
import { JSON_CONTENT_TYPE } from '../../sdk/http.js';
import { PreparedHeaders, writeComplete } from './response-writer.js';
import type { ResponseState } from './response-state.js';

const JSON_HEADERS = { 'content-type': JSON_CONTENT_TYPE } as const;
const JSON_ONLY = new PreparedHeaders(JSON_HEADERS);
/** Pass this (not `{}`) when there are no extra headers: the common case then allocates nothing. */
export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Send a JSON body with a status; a serialization error rejects. */
export function sendJson(
  state: ResponseState,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = NO_HEADERS,
  closeConnection = false,
): Promise<void> {
  try {
    writeJson(state, status, body, headers, closeConnection);
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * Write a JSON body with a status at once, unless the response ended already (a synchronous
 * {@link sendJson}: no promise for an answer given within uWS's callback).
 */
export function writeJson(
  state: ResponseState,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = NO_HEADERS,
  closeConnection = false,
): void {
  if (state.finished) return;
  const text = serialize(body);
  writeComplete(
    state,
    status,
    headers === NO_HEADERS ? JSON_ONLY : { ...JSON_HEADERS, ...headers },
    text,
    closeConnection,
  );
}

const serialized = new WeakMap<object, string | Buffer>();

/**
 * JSON of a body. A handler that returns the very same object again (a cached view) gets the
 * cached serialization: the sdk asks handlers never to mutate an object once returned. From the
 * second use on it is kept as UTF-8 bytes, which uWS sends without converting the text again
 * on every request (a 50-process list is ~10 KB).
 */
function serialize(body: unknown): string | Buffer {
  if (typeof body !== 'object' || body === null) return JSON.stringify(body ?? null);
  const cached = serialized.get(body);
  if (cached === undefined) {
    const text = JSON.stringify(body);
    serialized.set(body, text);
    return text;
  }
  if (typeof cached !== 'string') return cached;
  const bytes = Buffer.from(cached);
  serialized.set(body, bytes);
  return bytes;
}
