/**
 * Copy everything we need from a uWS request synchronously: the native `req` object is
 * invalid as soon as the handler returns or awaits.
 */
import type { ClientAddresses } from './client-address.js';
import { decodePercent, isWellFormedQuery } from './percent-encoding.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';

/** A plain copy of an incoming request. */
export interface RequestSnapshot {
  readonly method: string;
  readonly path: string;
  readonly rawQuery: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly params: Readonly<Record<string, string>>;
  readonly ip: string;
  /** The first path parameter (or `query`) whose percent-encoding is malformed, else null. */
  readonly malformed: string | null;
}

/** Copy method, path, query, headers, path parameters and the client address. */
export function snapshotRequest(
  req: HttpRequest,
  res: HttpResponse,
  paramNames: readonly string[],
  addresses: ClientAddresses,
): RequestSnapshot {
  const headers: Record<string, string> = {};
  req.forEach((key, value) => {
    headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
  });
  const params: Record<string, string> = {};
  let malformed: string | null = null;
  paramNames.forEach((name, index) => {
    const raw = req.getParameter(index) ?? '';
    const decoded = decodePercent(raw);
    if (decoded === null) malformed ??= name;
    params[name] = decoded ?? raw;
  });
  const rawQuery = req.getQuery() ?? '';
  if (malformed === null && !isWellFormedQuery(rawQuery)) malformed = 'query';
  return {
    method: req.getMethod().toUpperCase(),
    path: req.getUrl(),
    rawQuery,
    headers,
    params,
    ip: addresses.of(res, req),
    malformed,
  };
}
