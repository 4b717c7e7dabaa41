/** The uWS server: routes through the pipeline, streams through the hub, 404/405 fallbacks. */
import type { Logger } from '../../sdk/logger.js';
import type { StreamHub, StreamEnvironment } from '../ws/stream-hub.js';
import { errorBody } from '../http/error-mapper.js';
import { createRouteHandlers, type PipelineEnvironment } from '../http/request-pipeline.js';
import { framingRefusal, refuseFraming } from '../http/request-framing.js';
import { sendJson } from '../http/json-response.js';
import { ResponseState } from '../http/response-state.js';
import { headOnly } from '../http/head-response.js';
import { copyHeaders } from '../http/request-snapshot.js';
import type { RouteTable } from '../http/route-table.js';
import type { ProxyTable } from '../http/proxy-table.js';
import { createProxyHandler } from '../http/reverse-proxy.js';
import { socketProxyBehavior } from '../ws/proxy-socket.js';
import {
  closeListenSocket,
  createApp,
  listen,
  type TemplatedApp,
  type us_listen_socket,
} from '../http/uws-app.js';

const BINDERS = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  PATCH: 'patch',
  DELETE: 'del',
} as const satisfies Record<string, keyof TemplatedApp>;

/** A bound, listening server. */
export class HttpServer {
  private readonly app: TemplatedApp;
  private socket: us_listen_socket | null = null;

  constructor(
    private readonly routes: RouteTable,
    private readonly streams: StreamHub,
    private readonly proxies: ProxyTable,
    private readonly logger: Logger,
  ) {
    this.app = createApp();
  }

  /** Attach every route and stream, then the fallbacks. */
  bind(pipeline: PipelineEnvironment, streamEnv: StreamEnvironment): void {
    for (const route of this.routes.all()) {
      const bind = BINDERS[route.definition.method];
      for (const { path, handler } of createRouteHandlers(route, pipeline)) {
        this.app[bind](path, handler);
        if (bind === 'get') this.app.head(path, (res, req) => handler(headOnly(res), req));
      }
    }
    this.streams.bind(this.app, streamEnv);
    for (const proxy of this.proxies.all()) {
      for (const prefix of [proxy.definition.prefix, `/api${proxy.definition.prefix}`]) {
        // Upgrade requests go to the socket relay; uWS passes plain requests on to `any`.
        this.app.ws(
          `${prefix}/*`,
          socketProxyBehavior(proxy, prefix, {
            logger: pipeline.logger,
            authenticate: streamEnv.authenticate,
            addresses: pipeline.addresses,
          }),
        );
        this.app.any(
          `${prefix}/*`,
          createProxyHandler(proxy, prefix, {
            logger: pipeline.logger,
            authenticate: pipeline.authenticate,
            addresses: pipeline.addresses,
          }),
        );
      }
    }
    this.app.any('/*', (anyRes, req) => {
      const method = req.getMethod().toUpperCase();
      const res = method === 'HEAD' ? headOnly(anyRes) : anyRes;
      const state = new ResponseState(res);
      const path = req.getUrl();
      const { headers, headerBytes } = copyHeaders(req);
      const framing = framingRefusal(path, headers, headerBytes);
      if (framing !== null) {
        refuseFraming(state, framing).catch((error: unknown) =>
          this.logger.error('fallback response failed', { error }),
        );
        return;
      }
      const allowed = this.routes.methodsFor(path);
      const body =
        allowed.length > 0
          ? errorBody(
              `Method ${method} is not allowed on ${path}; use ${allowed.join(', ')}`,
              'HTTP_METHOD_NOT_ALLOWED',
            )
          : errorBody(`No route for ${method} ${path}`, 'HTTP_NOT_FOUND');
      const answerHeaders: Record<string, string> =
        allowed.length > 0 ? { allow: allowed.join(', ') } : {};
      // Drain any request body we will not read, so the connection stays usable.
      res.onData(() => undefined);
      sendJson(state, allowed.length > 0 ? 405 : 404, body, answerHeaders).catch((error: unknown) =>
        this.logger.error('fallback response failed', { error }),
      );
    });
  }

  /** Listen; resolves with the bound port. */
  async listen(host: string, port: number): Promise<number> {
    const bound = await listen(this.app, host, port);
    this.socket = bound.socket;
    return bound.port;
  }

  /** Stop accepting connections. Idempotent. */
  closeListener(): void {
    if (this.socket === null) return;
    closeListenSocket(this.socket);
    this.socket = null;
  }

  /** Close every open connection (after the listener closed and streams said goodbye). */
  closeAll(): void {
    (this.app as TemplatedApp & { close?: () => void }).close?.();
  }
}
