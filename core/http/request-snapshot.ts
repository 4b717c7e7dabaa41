/**
 * Copy everything we need from a uWS request synchronously: the native `req` object is
 * invalid as soon as the handler returns or awaits.
 */
import type { ClientAddresses } from './client-address.js';
import { decodePercent, isWellFormedQuery } from './percent-encoding.js';
import type { ResponseState } from './response-state.js';
import type { HttpRequest } from './uws-app.js';

/** A plain copy of an incoming request. */
export interface RequestSnapshot {
  readonly method: string;
  readonly path: string;
  readonly rawQuery: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The header section's size as the framing check counts it (lines as they came). */
  readonly headerBytes: number;
  readonly params: Readonly<Record<string, string>>;
  /**
   * The client address (trusted proxies applied), read from the socket on first use: uWS asks
   * the kernel (getpeername) and makes an ArrayBuffer each time, and most requests never need
   * it. Read while the response is open — in the handler's first synchronous part it always is;
   * once the response ended or the client went away it reads `unknown`.
   */
  readonly ip: string;
  /** The first path parameter (or `query`) whose percent-encoding is malformed, else null. */
  readonly malformed: string | null;
}

/** What `ip` reads once the response can no longer be asked. */
const UNKNOWN_CLIENT = 'unknown';

/** Shared by every request of a route without path parameters (nobody writes to it). */
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

// The headers being copied, and their size as the framing check counts it: one function for
// every request instead of a closure per request.
let copying: Record<string, string> = {};
let copiedBytes = 0;
function copyHeader(key: string, value: string): void {
  const headers = copying;
  // Own keys only: a header named like an Object.prototype member (`constructor`, `toString`)
  // would otherwise find that member and be joined to it.
  headers[key] = Object.hasOwn(headers, key) ? `${headers[key]}, ${value}` : value;
  copiedBytes += key.length + value.length + 4;
}

/** uWS gives the method in lower case; the usual ones map without a new string. */
const UPPER_METHODS: Readonly<Record<string, string>> = {
  get: 'GET',
  post: 'POST',
  put: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  head: 'HEAD',
  options: 'OPTIONS',
};

/**
 * What uWS's routing already says about a request: a handler bound with `get` (`post`, …) only
 * sees that method, and one bound to a path without parameters or wildcards only sees that exact
 * path (uWS matches static segments byte for byte and routes nothing else there; a HEAD request
 * does not reach a GET handler). Asking uWS again costs a native call and a new string each.
 */
export interface KnownByRoute {
  readonly method: string;
  /** The served path, when it has no parameters. */
  readonly path: string | undefined;
}

function upperMethod(method: string): string {
  return Object.hasOwn(UPPER_METHODS, method)
    ? (UPPER_METHODS[method] ?? method)
    : method.toUpperCase();
}

/**
 * A request's headers, a repeated one joined with `, `, and the size of the section as the
 * framing check counts it. Read within uWS's callback: the request is gone after it.
 */
export function copyHeaders(req: HttpRequest): {
  readonly headers: Record<string, string>;
  readonly headerBytes: number;
} {
  const headers: Record<string, string> = {};
  copying = headers;
  copiedBytes = 0;
  req.forEach(copyHeader);
  return { headers, headerBytes: copiedBytes };
}

/** Copy method, path, query, headers and path parameters; the client address on demand. */
export function snapshotRequest(
  req: HttpRequest,
  state: ResponseState,
  paramNames: readonly string[],
  addresses: ClientAddresses,
  known?: KnownByRoute,
): RequestSnapshot {
  const { headers, headerBytes } = copyHeaders(req);
  let params = NO_PARAMS;
  let malformed: string | null = null;
  if (paramNames.length > 0) {
    const copied: Record<string, string> = {};
    paramNames.forEach((name, index) => {
      const raw = req.getParameter(index) ?? '';
      const decoded = decodePercent(raw);
      if (decoded === null) malformed ??= name;
      copied[name] = decoded ?? raw;
    });
    params = copied;
  }
  const rawQuery = req.getQuery() ?? '';
  if (malformed === null && rawQuery !== '' && !isWellFormedQuery(rawQuery)) malformed = 'query';
  return new CopiedRequest(
    known?.method ?? upperMethod(req.getMethod()),
    known?.path ?? req.getUrl(),
    rawQuery,
    headers,
    headerBytes,
    params,
    malformed,
    state,
    addresses,
  );
}

// A class, not an object literal with a getter: V8 builds a literal's accessor at run time, in
// dictionary mode, on every request (measured: 15 % of /health's main thread under load).
class CopiedRequest implements RequestSnapshot {
  private address: string | undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly rawQuery: string,
    readonly headers: Readonly<Record<string, string>>,
    readonly headerBytes: number,
    readonly params: Readonly<Record<string, string>>,
    readonly malformed: string | null,
    private readonly state: ResponseState,
    private readonly addresses: ClientAddresses,
  ) {}

  get ip(): string {
    this.address ??= this.state.finished
      ? UNKNOWN_CLIENT
      : this.addresses.ofResponse(this.state.res, this.headers['x-forwarded-for']);
    return this.address;
  }
}
