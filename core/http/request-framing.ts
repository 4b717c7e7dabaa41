/**
 * Framing and target checks uWS's parser leaves to us. A request that is ambiguous about where
 * it ends (two Content-Length values, or one that is not a number: RFC 9112 §6.3) is the raw
 * material of request smuggling behind a proxy that reads it differently, so it is refused with
 * 400 and the connection is closed: nothing after it on that connection can be trusted. A Host
 * that is no host, a path with a backslash or a control character, and header sections larger
 * than any client needs are refused the same way, at once, instead of reaching a route.
 */
import { errorBody } from './error-mapper.js';
import { MAX_HEADER_BYTES } from './header-limit.js';
import { sendJson } from './json-response.js';
import type { ResponseState } from './response-state.js';

/** Why a request is refused before any route sees it. */
export interface FramingRefusal {
  readonly status: 400 | 431;
  readonly code: string;
  readonly detail: string;
}

const DECIMAL = /^[0-9]{1,15}$/;
// RFC 3986 host (reg-name, IPv4 or bracketed IPv6) with an optional port.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%!$&'()*+,;=]+)(?::[0-9]{0,5})?$/;
/** A backslash or any control character (NUL, CR, LF, DEL...) in the request target. */
function hasBadPathCharacter(path: string): boolean {
  for (let index = 0; index < path.length; index += 1) {
    const code = path.charCodeAt(index);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

/**
 * The refusal for a request, or null when its framing is sound. `headers` joins repeated
 * headers with `, ` (as the request snapshot does), so two Content-Length lines show as a list.
 */
export function framingRefusal(
  path: string,
  headers: Readonly<Record<string, string>>,
  headerSectionBytes = headerBytes(headers),
): FramingRefusal | null {
  const length = headers['content-length'];
  if (length !== undefined && !DECIMAL.test(length))
    return {
      status: 400,
      code: 'REQUEST_BAD_CONTENT_LENGTH',
      detail: length.includes(',')
        ? 'More than one Content-Length: where the body ends is ambiguous'
        : 'Content-Length is not a decimal number of bytes',
    };
  const host = headers.host;
  if (host !== undefined && host !== lastGoodHost) {
    if (!HOST.test(host))
      return { status: 400, code: 'REQUEST_BAD_HOST', detail: 'The Host header is not a host' };
    // Clients send the same Host again and again: the last good one needs no second look.
    lastGoodHost = host;
  }
  if (hasBadPathCharacter(path))
    return {
      status: 400,
      code: 'REQUEST_BAD_PATH',
      detail: 'The path contains a backslash or a control character',
    };
  if (headerSectionBytes > MAX_HEADER_BYTES)
    return {
      status: 431,
      code: 'REQUEST_HEADERS_TOO_LARGE',
      detail: `The request headers exceed ${MAX_HEADER_BYTES} bytes`,
    };
  return null;
}

let lastGoodHost: string | undefined;

/** What a header section's lines count towards the limit: name, value, `: ` and CRLF each. */
export function headerBytes(headers: Readonly<Record<string, string>>): number {
  let total = 0;
  for (const name in headers) total += name.length + (headers[name]?.length ?? 0) + 4;
  return total;
}

/** Answer a refusal and close the connection: what follows on it cannot be framed safely. */
export function refuseFraming(state: ResponseState, refusal: FramingRefusal): Promise<void> {
  return sendJson(state, refusal.status, errorBody(refusal.detail, refusal.code), undefined, true);
}
