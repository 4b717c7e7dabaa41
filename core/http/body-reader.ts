/**
 * Read a request body from uWS: copy every chunk (uWS reuses the ArrayBuffer after the callback)
 * and enforce the size limit while reading, so an oversized body is never buffered whole.
 */
import type { ResponseState } from './response-state.js';

/** The body, or the reason it could not be read. */
export type BodyResult =
  | { readonly kind: 'ok'; readonly body: Buffer }
  | { readonly kind: 'too-large'; readonly limit: number }
  | { readonly kind: 'aborted' };

/** Start reading now (synchronously attaches `onData`); resolves when the body is complete. */
export function readBody(
  state: ResponseState,
  limit: number,
  declaredLength: number | undefined,
): Promise<BodyResult> {
  if (declaredLength !== undefined && declaredLength > limit) {
    return Promise.resolve({ kind: 'too-large', limit });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    state.signal.addEventListener('abort', () => {
      if (!settled) {
        settled = true;
        resolve({ kind: 'aborted' });
      }
    });
    state.res.onData((chunk, isLast) => {
      if (settled) return;
      size += chunk.byteLength;
      if (size > limit) {
        settled = true;
        chunks.length = 0;
        resolve({ kind: 'too-large', limit });
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0))); // copy: uWS neuters the buffer after return
      if (isLast) {
        settled = true;
        resolve({ kind: 'ok', body: Buffer.concat(chunks, size) });
      }
    });
  });
}

/** Parse a Content-Length header; undefined when absent or unparsable. */
export function declaredContentLength(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = Number(header);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
