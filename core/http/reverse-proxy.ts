/**
 * HTTP reverse proxying through undici: the request body streams upstream with backpressure
 * (uWS pause/resume), the response streams back through the response writer. stackd's token
 * (bearer header or `?token=`) is stripped: it belongs to stackd, not to the service.
 */
import { Readable } from 'node:stream';
import type { Logger } from '../../sdk/logger.js';
import type { Authenticate } from './authenticate.js';
import type { ClientAddresses } from './client-address.js';
import { errorBody } from './error-mapper.js';
import {
  HOP_BY_HOP,
  isStackdCredential,
  proxyToken,
  queryWithoutToken,
  splitProxyPath,
  upstreamUrl,
  type RegisteredProxy,
} from './proxy-table.js';
import { sendJson } from './json-response.js';
import { snapshotRequest, type RequestSnapshot } from './request-snapshot.js';
import { refuseMalformed } from './request-pipeline.js';
import { framingRefusal, refuseFraming } from './request-framing.js';
import { ResponseState } from './response-state.js';
import { writeResponse } from './response-writer.js';
import type { HttpRequest, HttpResponse } from './uws-app.js';

/** What the proxy handler needs from the host. */
export interface ProxyEnvironment {
  readonly logger: Logger;
  readonly authenticate: Authenticate | null;
  readonly addresses: ClientAddresses;
}

const BODYLESS = new Set(['GET', 'HEAD']);

/** A uWS handler forwarding every method under the proxy's prefix. */
export function createProxyHandler(
  proxy: RegisteredProxy,
  servedPrefix: string,
  env: ProxyEnvironment,
) {
  return (res: HttpResponse, req: HttpRequest): void => {
    const state = new ResponseState(res);
    const snapshot = snapshotRequest(req, state, [], env.addresses);
    // An ambiguous request must never reach a service that may frame it differently.
    const framing = framingRefusal(snapshot.path, snapshot.headers, snapshot.headerBytes);
    if (framing !== null) {
      refuseFraming(state, framing).catch((error: unknown) => {
        env.logger.error(`proxy refusal of ${snapshot.path} failed`, { error });
      });
      return;
    }
    // Read now: a proxied request always forwards it, after awaits that may outlive the socket.
    void snapshot.ip;
    const body = BODYLESS.has(snapshot.method) ? undefined : requestBodyStream(state);
    forward(proxy, servedPrefix, env, state, snapshot, body).catch(async (error: unknown) => {
      env.logger.error(`proxy ${snapshot.method} ${snapshot.path} failed`, { error });
      // Whatever failed, the client gets an answer: no request may hang.
      if (!state.finished)
        await sendJson(state, 500, errorBody('The proxy failed', 'PROXY_FAILED')).catch(
          () => undefined,
        );
    });
  };
}

/** A Readable fed by uWS `onData`, pausing the socket while the consumer is behind. */
function requestBodyStream(state: ResponseState): Readable {
  const stream = new Readable({
    read() {
      if (!state.finished) state.res.resume();
    },
  });
  state.res.onData((chunk, isLast) => {
    if (!stream.push(Buffer.from(chunk.slice(0)))) state.res.pause();
    if (isLast) stream.push(null);
  });
  state.onAbort(() => stream.destroy());
  return stream;
}

async function forward(
  proxy: RegisteredProxy,
  servedPrefix: string,
  env: ProxyEnvironment,
  state: ResponseState,
  snapshot: RequestSnapshot,
  body: Readable | undefined,
): Promise<void> {
  const refusal =
    (await authRefusal(proxy, env, snapshot)) ?? targetOf(proxy, servedPrefix, snapshot);
  if ('send' in refusal) {
    body?.destroy();
    await refusal.send(state);
    return;
  }
  await relayUpstream(proxy, refusal, env, state, snapshot, body);
}

/** A request the proxy answers itself instead of forwarding. */
interface Refusal {
  readonly send: (state: ResponseState) => Promise<void>;
}

/** Where a request goes upstream. */
interface Target {
  readonly url: string;
  readonly origin: string;
  readonly key: string;
}

async function authRefusal(
  proxy: RegisteredProxy,
  env: ProxyEnvironment,
  snapshot: RequestSnapshot,
): Promise<Refusal | undefined> {
  if (proxy.definition.auth === 'open' || env.authenticate === null) return undefined;
  const auth = await env.authenticate({
    token: proxyToken(snapshot.headers, snapshot.rawQuery),
    ip: snapshot.ip,
    path: snapshot.path,
    method: snapshot.method,
    transport: 'http',
  });
  if (auth.ok) return undefined;
  return {
    send: (state) =>
      sendJson(state, auth.status, errorBody(auth.detail, auth.code), {
        'www-authenticate': 'Bearer',
      }),
  };
}

function targetOf(
  proxy: RegisteredProxy,
  servedPrefix: string,
  snapshot: RequestSnapshot,
): Target | Refusal {
  const { definition } = proxy;
  const parts = splitProxyPath(servedPrefix, snapshot.path);
  if (parts === 'malformed' || snapshot.malformed !== null)
    return { send: (state) => refuseMalformed(state, parts === 'malformed' ? 'key' : 'query') };
  const target = parts === null ? null : definition.resolve(parts.key);
  if (parts === null || target === null) {
    const body = errorBody(`No proxied service at ${snapshot.path}`, 'PROXY_TARGET_NOT_FOUND');
    return { send: (state) => sendJson(state, 404, body) };
  }
  const url = upstreamUrl(
    target.origin,
    definition.prefix,
    parts.key,
    parts.rest,
    queryWithoutToken(snapshot.rawQuery),
    target.stripPrefix !== false,
  );
  return { url, origin: target.origin, key: parts.key };
}

async function relayUpstream(
  proxy: RegisteredProxy,
  target: Target,
  env: ProxyEnvironment,
  state: ResponseState,
  snapshot: RequestSnapshot,
  body: Readable | undefined,
): Promise<void> {
  const { prefix } = proxy.definition;
  let upstream;
  try {
    // undici is loaded on the first proxied request: it costs ~20 MB a host without proxies never needs.
    const { request: upstreamRequest } = await import('undici');
    upstream = await upstreamRequest(target.url, {
      method: snapshot.method as 'GET',
      headers: forwardedHeaders(snapshot, prefix, target.key),
      body: body ?? null,
      signal: state.signal,
    });
  } catch (error) {
    if (state.finished) return;
    env.logger.warn(`proxy to ${target.origin} failed`, { error });
    await sendJson(
      state,
      502,
      errorBody(
        `The service behind ${prefix}/${target.key} is unreachable`,
        'PROXY_UPSTREAM_UNREACHABLE',
      ),
    );
    return;
  }
  await writeResponse(state, {
    status: upstream.statusCode,
    headers: responseHeaders(upstream.headers),
    body: upstream.body,
  });
}

function forwardedHeaders(
  snapshot: RequestSnapshot,
  prefix: string,
  key: string,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(snapshot.headers)) {
    if (HOP_BY_HOP.has(name)) continue;
    if (isStackdCredential(name, value)) continue;
    headers[name] = value;
  }
  headers['x-forwarded-for'] = snapshot.ip;
  headers['x-forwarded-host'] = snapshot.headers.host ?? '';
  headers['x-forwarded-proto'] = 'http';
  headers['x-forwarded-prefix'] = `${prefix}/${key}`;
  return headers;
}

function responseHeaders(
  upstream: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(upstream)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  return headers;
}
