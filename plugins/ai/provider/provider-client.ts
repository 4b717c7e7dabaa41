/**
 * Sends adapter-built requests through the sdk's outbound client (the outbound policy applies to
 * every connection and redirect) with the clamped timeout and the caller's signal.
 */
import { GatewayTimeoutError, HttpError, OutboundClient } from '../../../sdk/index.js';
import { adapterFor } from '../adapters/index.js';
import { rejectRetired } from './model-retirement.js';
import { MalformedAnswer, type Completion, type ProviderTarget } from '../adapters/types.js';
import {
  PROVIDER_MALFORMED,
  PROVIDER_TIMEOUT,
  PROVIDER_UNREACHABLE,
  REQUEST_CANCELLED,
} from '../errors.js';

/** 502 for a provider that could not be used; `cause` is logged, never sent. */
export class ProviderError extends HttpError {
  constructor(code: string, detail: string, cause?: unknown) {
    super(502, code, detail, cause === undefined ? {} : { cause });
  }
}

/**
 * What every failed call says, whatever happened: a closed port, a refused address, an HTTP
 * error status or an answer that is not JSON all read the same, so the AI routes cannot be
 * used to scan which addresses and ports answer. The real cause goes to the log.
 */
export const UNREACHABLE_DETAIL = 'could not reach the provider';

function unreachable(cause: string | Error): ProviderError {
  return new ProviderError(
    PROVIDER_UNREACHABLE,
    UNREACHABLE_DETAIL,
    typeof cause === 'string' ? new Error(cause) : cause,
  );
}

let outbound = new OutboundClient();

/** The plugin's outbound client (its policy: `stackd.outbound` and stackd's own address). */
export function useOutbound(client: OutboundClient): void {
  outbound = client;
}

/** Check a provider base URL given in a request body or saved setting (422 naming `field`). */
export function checkProviderUrl(value: string, field: string): void {
  outbound.checkUrl(value, field);
}

/** Timeouts are clamped to 5–300 s (docs/decisions.md §23). */
export const clampTimeout = (seconds: number): number =>
  Number.isFinite(seconds) ? Math.min(300, Math.max(5, seconds)) : 300;

/** Told about every provider call: the provider and whether it answered usably. */
export type ProviderCallListener = (provider: string, outcome: 'ok' | 'error') => void;

const callListeners = new Set<ProviderCallListener>();

/** Hear about provider calls (the exposition's counters); returns the release function. */
export function onProviderCall(listener: ProviderCallListener): () => void {
  callListeners.add(listener);
  return () => callListeners.delete(listener);
}

function noteCall(provider: string, outcome: 'ok' | 'error'): void {
  for (const listener of callListeners) listener(provider, outcome);
}

async function send(
  target: ProviderTarget,
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown },
  signal: AbortSignal,
): Promise<unknown> {
  try {
    const body = await sendOnce(target, url, init, signal);
    noteCall(target.provider, 'ok');
    return body;
  } catch (error) {
    noteCall(target.provider, 'error');
    throw error;
  }
}

async function sendOnce(
  target: ProviderTarget,
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown },
  signal: AbortSignal,
): Promise<unknown> {
  const { request } = await import('undici');
  const dispatcher = await outbound.dispatcher();
  // Whole milliseconds: AbortSignal.timeout throws on a fraction (timeout_sec 40.5 is fine).
  const timeoutMs = Math.round(clampTimeout(target.timeoutSec) * 1000);
  const combined = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
  let response;
  try {
    response = await request(url, {
      method: init.method,
      headers: init.headers,
      body: init.body === undefined ? null : JSON.stringify(init.body),
      signal: combined,
      dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  } catch (error) {
    if (signal.aborted) throw new ProviderError(REQUEST_CANCELLED, 'Request cancelled');
    const timedOut = combined.aborted || /timeout/i.test(String((error as Error).name));
    if (timedOut)
      throw new GatewayTimeoutError(
        PROVIDER_TIMEOUT,
        `AI provider ${target.provider} did not answer within ${clampTimeout(target.timeoutSec)} s`,
      );
    throw unreachable(error as Error);
  }
  const text = await response.body.text();
  if (response.statusCode >= 300)
    throw unreachable(`AI provider ${target.provider} answered HTTP ${response.statusCode}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw unreachable(`AI provider ${target.provider} sent an answer that is not JSON`);
  }
}

function malformed<T>(target: ProviderTarget, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof MalformedAnswer)
      throw new ProviderError(
        PROVIDER_MALFORMED,
        `AI provider ${target.provider} sent a malformed answer (${error.message})`,
      );
    throw error;
  }
}

/** One chat completion. */
export async function complete(
  target: ProviderTarget,
  system: string,
  user: string,
  signal: AbortSignal,
): Promise<Completion> {
  const adapter = adapterFor(target.provider);
  rejectRetired(adapter.kind, target.model);
  const built = adapter.buildChat(target, system, user);
  const body = await send(
    target,
    built.url,
    { method: 'POST', headers: built.headers, body: built.body },
    signal,
  );
  return malformed(target, () => adapter.parseChat(body));
}

/** The provider's model list. */
export async function listModels(target: ProviderTarget, signal: AbortSignal): Promise<string[]> {
  const adapter = adapterFor(target.provider);
  const built = adapter.buildModels(target);
  const body = await send(target, built.url, { method: 'GET', headers: built.headers }, signal);
  return malformed(target, () => adapter.parseModels(body));
}
