/**
 * WebSocket reverse proxying: the upstream connection is opened during the (async) upgrade, so a
 * dead upstream is a 502 instead of an accepted socket that closes at once; then frames are
 * relayed both ways and either side's close closes the other.
 */
import type { WebSocket as UpstreamSocket } from 'undici';
import type { Logger } from '../../sdk/logger.js';
import type { Authenticate } from '../http/authenticate.js';
import type { ClientAddresses } from '../http/client-address.js';
import {
  proxyToken,
  queryWithoutToken,
  splitProxyPath,
  upstreamUrl,
  type RegisteredProxy,
} from '../http/proxy-table.js';
import type { WebSocket, WebSocketBehavior } from '../http/uws-app.js';

/** What the proxy needs from the host. */
export interface SocketProxyEnvironment {
  readonly logger: Logger;
  readonly authenticate: Authenticate | null;
  /** Who the client is (trusted proxies applied). */
  readonly addresses: ClientAddresses;
}

interface Relay {
  readonly upstream: UpstreamSocket;
  /** Frames that arrived from upstream before the client socket opened. */
  readonly early: Array<string | Buffer>;
  /** The client socket while it is open: a closed uWS socket must never be touched again. */
  client?: WebSocket<RelayData> | undefined;
  upstreamClosed: boolean;
}

/** uWS copies the user data object given to upgrade(), so mutable state lives one level down. */
interface RelayData {
  readonly relay: Relay;
}

const CONNECT_TIMEOUT_MS = 10_000;

function statusLine(status: number, text: string): string {
  return `${status} ${text}`;
}

/** What the upgrade copies from the native request before its first await. */
interface UpgradeRequest {
  readonly path: string;
  readonly rawQuery: string;
  readonly headers: Record<string, string>;
  readonly key: string;
  readonly protocol: string;
  readonly extensions: string;
  readonly ip: string;
}

/** The upgrade's answer: a refusal status line, or the client socket upgraded. */
interface UpgradeReply {
  refuse(status: number, text: string): void;
  /** False once the client went away: nothing may be written then. */
  readonly open: () => boolean;
  upgrade(relay: Relay): void;
}

/** uWS behaviour for `<prefix>/*` upgrade requests. */
export function socketProxyBehavior(
  proxy: RegisteredProxy,
  servedPrefix: string,
  env: SocketProxyEnvironment,
): WebSocketBehavior<RelayData> {
  return {
    maxPayloadLength: 16 * 1024 * 1024,
    idleTimeout: 0,
    maxBackpressure: 16 * 1024 * 1024,
    upgrade: (res, req, context) => {
      let aborted = false;
      res.onAborted(() => {
        aborted = true;
      });
      const headers: Record<string, string> = {};
      req.forEach((key, value) => (headers[key] = value));
      const request: UpgradeRequest = {
        path: req.getUrl(),
        rawQuery: req.getQuery() ?? '',
        headers,
        key: req.getHeader('sec-websocket-key'),
        protocol: req.getHeader('sec-websocket-protocol'),
        extensions: req.getHeader('sec-websocket-extensions'),
        ip: env.addresses.of(res, req),
      };
      const reply: UpgradeReply = {
        refuse: (status, text) => {
          if (!aborted) res.cork(() => res.writeStatus(statusLine(status, text)).end());
        },
        open: () => !aborted,
        upgrade: (relay) =>
          res.cork(() =>
            res.upgrade<RelayData>(
              { relay },
              request.key,
              request.protocol,
              request.extensions,
              context,
            ),
          ),
      };
      openRelay(proxy, servedPrefix, env, request, reply).catch((error: unknown) => {
        env.logger.error(`websocket proxy upgrade of ${request.path} failed`, { error });
        reply.refuse(500, 'Internal Server Error');
      });
    },
    open: (ws) => {
      const data = ws.getUserData().relay;
      for (const frame of data.early.splice(0)) ws.send(frame, typeof frame !== 'string');
      if (data.upstreamClosed) ws.end(1011, 'upstream closed');
      else data.client = ws;
    },
    message: (ws, message, isBinary) => {
      const { upstream } = ws.getUserData().relay;
      // Copy: uWS reuses the buffer once this callback returns.
      if (isBinary) upstream.send(Buffer.from(message.slice(0)));
      else upstream.send(Buffer.from(message).toString('utf8'));
    },
    close: (ws) => {
      const relay = ws.getUserData().relay;
      relay.client = undefined;
      const { upstream } = relay;
      if (upstream.readyState === OPEN || upstream.readyState === CONNECTING) upstream.close();
    },
  };
}

/** Authenticate, resolve the target, connect upstream, then upgrade the client (or refuse). */
async function openRelay(
  proxy: RegisteredProxy,
  servedPrefix: string,
  env: SocketProxyEnvironment,
  request: UpgradeRequest,
  reply: UpgradeReply,
): Promise<void> {
  const { definition } = proxy;
  const { path, rawQuery } = request;
  if (definition.auth !== 'open' && env.authenticate !== null) {
    const auth = await env.authenticate({
      token: proxyToken(request.headers, rawQuery),
      ip: request.ip,
      path,
      transport: 'websocket',
    });
    if (!auth.ok)
      return reply.refuse(auth.status, auth.status === 401 ? 'Unauthorized' : 'Forbidden');
  }
  const parts = splitProxyPath(servedPrefix, path);
  if (parts === 'malformed') return reply.refuse(400, 'Bad Request');
  const target = parts === null ? null : definition.resolve(parts.key);
  if (parts === null || target === null) return reply.refuse(404, 'Not Found');
  const url = upstreamUrl(
    target.origin,
    definition.prefix,
    parts.key,
    parts.rest,
    // stackd's `?token=` authenticated this upgrade; the service must never see it.
    queryWithoutToken(rawQuery),
    target.stripPrefix !== false,
  ).replace(/^http/, 'ws');
  const upstream = await connectUpstream(url, request.protocol);
  if (upstream === null) return reply.refuse(502, 'Bad Gateway');
  if (!reply.open()) {
    upstream.close();
    return undefined;
  }
  reply.upgrade(relayOf(upstream));
  return undefined;
}

/** The relay state of an open upstream: its frames and its close reach the client. */
function relayOf(upstream: UpstreamSocket): Relay {
  const data: Relay = { upstream, early: [], upstreamClosed: false };
  upstream.addEventListener('message', (event) => {
    const frame =
      typeof event.data === 'string' ? event.data : Buffer.from(event.data as ArrayBuffer);
    if (data.client === undefined) data.early.push(frame);
    else data.client.cork(() => data.client?.send(frame, typeof frame !== 'string'));
  });
  upstream.addEventListener('close', (event) => {
    data.upstreamClosed = true;
    const client = data.client;
    data.client = undefined;
    client?.end(closeCode(event.code), event.reason);
  });
  return data;
}

/** Close codes 1005/1006 describe a missing code or a dropped connection; they cannot be sent. */
function closeCode(code: number): number {
  return code === 1005 || code === 1006 || code < 1000 || code > 4999 ? 1000 : code;
}

// WebSocket readyState values (the standard's numbers; undici is not loaded to read them).
const CONNECTING = 0;
const OPEN = 1;

async function connectUpstream(url: string, protocol: string): Promise<UpstreamSocket | null> {
  // Loaded on the first proxied socket: undici costs ~20 MB a host without proxies never needs.
  const { WebSocket } = await import('undici');
  return new Promise((resolve) => {
    const protocols = protocol
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
    const socket = protocols.length > 0 ? new WebSocket(url, protocols) : new WebSocket(url);
    const timer = setTimeout(() => {
      socket.close();
      resolve(null);
    }, CONNECT_TIMEOUT_MS);
    socket.addEventListener(
      'open',
      () => {
        clearTimeout(timer);
        resolve(socket);
      },
      { once: true },
    );
    socket.addEventListener(
      'error',
      () => {
        clearTimeout(timer);
        resolve(null);
      },
      { once: true },
    );
  });
}
