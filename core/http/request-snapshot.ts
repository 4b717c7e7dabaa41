/**
 * Copy everything we need from a uWS request synchronously: the native `req` object is
 * invalid as soon as the handler returns or awaits.
 */
import type { HttpRequest, HttpResponse } from './uws-app.js';

/** A plain copy of an incoming request. */
export interface RequestSnapshot {
  readonly method: string;
  readonly path: string;
  readonly rawQuery: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly params: Readonly<Record<string, string>>;
  readonly ip: string;
}

/** Copy method, path, query, headers, path parameters and the client address. */
export function snapshotRequest(
  req: HttpRequest,
  res: HttpResponse,
  paramNames: readonly string[],
): RequestSnapshot {
  const headers: Record<string, string> = {};
  req.forEach((key, value) => {
    headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
  });
  const params: Record<string, string> = {};
  paramNames.forEach((name, index) => {
    params[name] = safeDecode(req.getParameter(index));
  });
  return {
    method: req.getMethod().toUpperCase(),
    path: req.getUrl(),
    rawQuery: req.getQuery() ?? '',
    headers,
    params,
    ip: Buffer.from(res.getRemoteAddressAsText()).toString('utf8'),
  };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
