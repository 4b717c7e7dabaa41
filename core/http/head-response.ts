/**
 * HEAD: the answer GET would give, without its body (RFC 9110 §9.3.2). Health checks use it
 * (`curl -I`, `wget --spider`), and a HEAD answer that carried a body would be read by a
 * keep-alive client as the start of its next response.
 *
 * The GET route's own pipeline runs against a response that writes the status and headers and
 * ends with the body's length instead of the body. uWS 20.30 does not count `endWithoutBody` as
 * having answered, and its connection cannot take another request after one (it closes when the
 * next arrives), so the answer says `Connection: close` and an abort handler is attached first:
 * uWS aborts the process when a request callback returns with neither an answer nor one.
 */
import type { HttpResponse } from './uws-app.js';

/** Wrap a uWS response so that the body written to it is counted, not sent. */
export function headOnly(res: HttpResponse): HttpResponse {
  res.onAborted(() => undefined);
  let length = 0;
  const end = (body?: string | ArrayBuffer | ArrayBufferView): HttpResponse => {
    res.endWithoutBody(length + byteLength(body), true);
    return proxy;
  };
  const overrides: Partial<Record<keyof HttpResponse, unknown>> = {
    write(chunk: string | ArrayBuffer | ArrayBufferView): boolean {
      length += byteLength(chunk);
      return true;
    },
    end,
  };
  const proxy: HttpResponse = new Proxy(res, {
    get(target, key): unknown {
      if (typeof key === 'string' && Object.hasOwn(overrides, key))
        return overrides[key as keyof HttpResponse];
      const value: unknown = Reflect.get(target, key);
      // uWS's native methods need the native object as `this`.
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
  return proxy;
}

function byteLength(body: string | ArrayBuffer | ArrayBufferView | undefined): number {
  if (body === undefined) return 0;
  if (typeof body === 'string') return Buffer.byteLength(body);
  return body.byteLength;
}
