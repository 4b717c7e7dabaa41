/**
 * Read a request body from uWS: copy every chunk (uWS reuses the ArrayBuffer after the callback)
 * and enforce the size limit while reading, so an oversized body is never buffered whole.
 *
 * An oversized body is drained (read and discarded) before the 413 goes out, up to a cap: a
 * client still writing its upload when the server answers and closes gets a reset instead of
 * the 413. Past the cap the connection is closed at once.
 */
import type { ResponseState } from './response-state.js';

/** Bytes of an oversized body we read and discard so the client can receive the 413. */
export const DRAIN_CAP_BYTES = 16 * 1024 * 1024;

/** The body, or the reason it could not be read. */
export type BodyResult =
  | { readonly kind: 'ok'; readonly body: Buffer }
  | { readonly kind: 'too-large'; readonly limit: number; readonly closeConnection: boolean }
  | { readonly kind: 'aborted' };

/** Start reading now (synchronously attaches `onData`); resolves when the body is complete. */
export function readBody(
  state: ResponseState,
  limit: number,
  declaredLength: number | undefined,
): Promise<BodyResult> {
  if (declaredLength !== undefined && declaredLength > limit + DRAIN_CAP_BYTES) {
    return Promise.resolve({ kind: 'too-large', limit, closeConnection: true });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyResult): void => {
      settled = true;
      chunks.length = 0;
      resolve(result);
    };
    state.onAbort(() => {
      if (!settled) settle({ kind: 'aborted' });
    });
    state.res.onData((chunk, isLast) => {
      if (settled) return;
      size += chunk.byteLength;
      if (size > limit + DRAIN_CAP_BYTES) {
        settle({ kind: 'too-large', limit, closeConnection: true });
        return;
      }
      if (size <= limit) chunks.push(Buffer.from(chunk.slice(0))); // copy: uWS neuters the buffer
      if (!isLast) return;
      if (size > limit) {
        settle({ kind: 'too-large', limit, closeConnection: false });
        return;
      }
      settled = true;
      resolve({ kind: 'ok', body: Buffer.concat(chunks, size) });
    });
  });
}

/** Parse a Content-Length header; undefined when absent or unparsable. */
export function declaredContentLength(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = Number(header);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
