/**
 * One HTTP delivery through the sdk's outbound client (the outbound policy checks every
 * connection; redirects are not followed; 15 s timeout), and what its answer means: success
 * (2xx), retry later (5xx, 408, 429, network errors; Retry-After honoured) or give up (an
 * address the policy refuses, any other status: the request itself is wrong).
 */
import type * as Undici from 'undici';
import { isOutboundRefused, redactText, type OutboundClient } from '../../../sdk/index.js';
import type { OutboundRequest } from './payloads/index.js';

/** The outcome of one attempt. */
export type SendOutcome =
  | { readonly kind: 'ok' }
  | { readonly kind: 'retry'; readonly error: string; readonly retryAfterSec: number | null }
  | { readonly kind: 'fatal'; readonly error: string };

const TIMEOUT_MS = 15_000;
let undici: Promise<typeof Undici> | undefined;

/**
 * The error every failed delivery records: a closed port, a refused address and an error
 * status read the same, so the test route cannot be used to scan which addresses answer. The
 * cause is given to `logCause` (the plugin's log).
 */
export const UNREACHABLE_ERROR = 'could not reach the provider';

/** Error text safe to store: redacted, URLs cut to their scheme, at most 1000 characters. */
export function safeError(text: string): string {
  return redactText(text)
    .replace(/\b([a-z][a-z0-9+.-]*):\/\/\S+/gi, '$1://[redacted]')
    .slice(0, 1000);
}

function retryAfter(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return null;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, (at - Date.now()) / 1000);
}

/** Send one request. */
export async function send(
  request: OutboundRequest,
  headers: Readonly<Record<string, string>>,
  verifyTls: boolean,
  outbound: OutboundClient,
  logCause: (cause: string) => void,
  signal?: AbortSignal,
): Promise<SendOutcome> {
  const library = await (undici ??= import('undici'));
  const agent = await outbound.dispatcher({ verifyTls, maxRedirections: 0 });
  try {
    const response = await library.request(request.url, {
      method: 'POST',
      headers: { ...request.headers, ...headers },
      body: request.body,
      dispatcher: agent,
      signal:
        signal === undefined
          ? AbortSignal.timeout(TIMEOUT_MS)
          : AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    const text = (await response.body.text()).slice(0, 300);
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { kind: 'ok' };
    logCause(safeError(`HTTP ${status}${text === '' ? '' : `: ${text}`}`));
    const error = UNREACHABLE_ERROR;
    if (status >= 500 || status === 408 || status === 429)
      return { kind: 'retry', error, retryAfterSec: retryAfter(response.headers['retry-after']) };
    return { kind: 'fatal', error };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    const message = error instanceof Error ? error.message : String(error);
    const text =
      name === 'TimeoutError' || name === 'AbortError'
        ? `no answer within ${TIMEOUT_MS / 1000} s`
        : message;
    logCause(safeError(text));
    if (isOutboundRefused(error)) return { kind: 'fatal', error: UNREACHABLE_ERROR };
    return { kind: 'retry', error: UNREACHABLE_ERROR, retryAfterSec: null };
  }
}
