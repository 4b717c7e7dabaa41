/** JSON answers: the content type, and serialization reused for a body returned again. */
import { writeResponse } from './response-writer.js';
import type { ResponseState } from './response-state.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;
/** Pass this (not `{}`) when there are no extra headers: the common case then allocates nothing. */
export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Send a JSON body with a status. */
export async function sendJson(
  state: ResponseState,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = NO_HEADERS,
  closeConnection = false,
): Promise<void> {
  await writeResponse(state, {
    status,
    headers: headers === NO_HEADERS ? JSON_HEADERS : { ...JSON_HEADERS, ...headers },
    body: serialize(body),
    closeConnection,
  });
}

const serialized = new WeakMap<object, string>();

/**
 * JSON text of a body. A handler that returns the very same object again (a cached view) gets
 * the cached text: the sdk asks handlers never to mutate an object once returned.
 */
function serialize(body: unknown): string {
  if (typeof body !== 'object' || body === null) return JSON.stringify(body ?? null);
  let text = serialized.get(body);
  if (text === undefined) {
    text = JSON.stringify(body);
    serialized.set(body, text);
  }
  return text;
}
