/**
 * WebSocket streams: async upgrade with an aborted guard and the auth gate, per-client flow
 * control, `ping` → `pong`, one serialization per publish, and closing every socket at stop.
 */
import type { Static, TObject } from '@sinclair/typebox';
import type { Logger } from '../../sdk/logger.js';
import type { Authenticate } from '../http/authenticate.js';
import type { ClientAddresses } from '../http/client-address.js';
import type { StreamDefinition, StreamHandle } from '../../sdk/stream.js';
import { parseQuery } from '../http/query-string.js';
import { isWellFormedQuery } from '../http/percent-encoding.js';
import { servedPaths } from '../http/route-paths.js';
import type { TemplatedApp, WebSocket, WebSocketBehavior } from '../http/uws-app.js';
import { OutboundQueue } from './backpressure.js';
import {
  HubClient,
  StreamRuntime,
  type RegisteredStream,
  type SocketData,
} from './stream-runtime.js';

export type { RegisteredStream };

/** What the hub needs from the host when binding. */
export interface StreamEnvironment {
  readonly logger: Logger;
  readonly authenticate: Authenticate | null;
  /** Who the client is (trusted proxies applied). */
  readonly addresses: ClientAddresses;
  /** Validate published messages against the stream's schema (tests). */
  readonly validateMessages: boolean;
}

/** All streams of the host. */
export class StreamHub {
  private readonly runtimes: StreamRuntime[] = [];
  private nextClientId = 1;

  /** Declare a stream; the handle works once the hub is bound. */
  register<Q extends TObject>(
    owner: string,
    definition: StreamDefinition<Q>,
  ): StreamHandle<Static<Q>> {
    return this.registerRuntime(owner, definition);
  }

  /** Declare a core stream: its runtime, whose `broadcast` uses uWS's own fan-out. */
  registerRuntime<Q extends TObject>(
    owner: string,
    definition: StreamDefinition<Q>,
  ): StreamRuntime {
    const paths = servedPaths(definition.path).filter((path) => !path.endsWith('/'));
    for (const runtime of this.runtimes) {
      const clash = runtime.registered.paths.find((path) => paths.includes(path));
      if (clash !== undefined) {
        throw new Error(
          `stream ${definition.path} of plugin '${owner}' collides with ${runtime.registered.definition.path} of plugin '${runtime.registered.owner}'`,
        );
      }
    }
    const runtime = new StreamRuntime({
      owner,
      definition: definition as unknown as StreamDefinition,
      paths,
    });
    this.runtimes.push(runtime);
    return runtime;
  }

  /** Declared streams (for OpenAPI). */
  all(): readonly RegisteredStream[] {
    return this.runtimes.map((runtime) => runtime.registered);
  }

  /** Connected clients per declared stream (for the exposition). */
  clientCounts(): Array<{ stream: string; clients: number }> {
    return this.runtimes.map((runtime) => ({
      stream: runtime.registered.definition.path,
      clients: runtime.clients.size,
    }));
  }

  /** Attach every stream to the app. */
  bind(app: TemplatedApp, env: StreamEnvironment): void {
    for (const runtime of this.runtimes) {
      runtime.validateMessages = env.validateMessages;
      runtime.logger = env.logger;
      runtime.app = app;
      for (const path of runtime.registered.paths)
        app.ws<SocketData>(path, this.behavior(runtime, env));
    }
  }

  /** Close every socket (host stopping). */
  closeAll(code = 1001, reason = 'server shutting down'): void {
    for (const runtime of this.runtimes) {
      for (const client of [...runtime.clients]) client.close(code, reason);
    }
  }

  private behavior(runtime: StreamRuntime, env: StreamEnvironment): WebSocketBehavior<SocketData> {
    const definition = runtime.registered.definition;
    return {
      maxPayloadLength: 64 * 1024,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      // Our own queue decides what to drop; uWS must never drop silently below it.
      maxBackpressure: 64 * 1024 * 1024,
      upgrade: (res, req, context) => {
        let aborted = false;
        res.onAborted(() => {
          aborted = true;
        });
        const url = req.getUrl();
        const rawQuery = req.getQuery() ?? '';
        const key = req.getHeader('sec-websocket-key');
        const protocol = req.getHeader('sec-websocket-protocol');
        const extensions = req.getHeader('sec-websocket-extensions');
        const ip = env.addresses.of(res, req);
        void this.prepare(runtime, env, rawQuery, ip, url).then(
          (data) => {
            if (aborted) return;
            res.cork(() => res.upgrade<SocketData>(data, key, protocol, extensions, context));
          },
          (error: unknown) => {
            env.logger.error(`upgrade of ${url} failed`, { error });
            if (!aborted) res.cork(() => res.writeStatus('500 Internal Server Error').end());
          },
        );
      },
      open: (ws: WebSocket<SocketData>) => {
        const data = ws.getUserData();
        if (data.refusal !== null) {
          ws.end(data.refusal.code, data.refusal.reason);
          return;
        }
        const queue = new OutboundQueue(ws, definition.overflow, definition.maxQueue ?? 1024);
        const client = new HubClient(this.nextClientId++, data.query, data.principal, ws, queue);
        data.client = client;
        runtime.clients.add(client);
        this.invoke(env, definition.path, () => definition.onOpen?.(client));
      },
      message: (ws: WebSocket<SocketData>, message: ArrayBuffer) => {
        const client = ws.getUserData().client;
        if (client === undefined) return;
        const text = Buffer.from(message).toString('utf8');
        if (isPing(text)) {
          client.send('pong');
          return;
        }
        this.invoke(env, definition.path, () => definition.onMessage?.(client, text));
      },
      drain: (ws: WebSocket<SocketData>) => {
        ws.getUserData().client?.queue.drain();
      },
      close: (ws: WebSocket<SocketData>) => {
        const client = ws.getUserData().client;
        if (client === undefined) return;
        runtime.clients.delete(client);
        client.markClosed();
        this.invoke(env, definition.path, () => definition.onClose?.(client));
      },
    };
  }

  private async prepare(
    runtime: StreamRuntime,
    env: StreamEnvironment,
    rawQuery: string,
    ip: string,
    path: string,
  ): Promise<SocketData> {
    if (!isWellFormedQuery(rawQuery))
      return {
        query: {},
        refusal: { code: 1008, reason: 'malformed percent-encoding in the query string' },
        principal: null,
      };
    const raw = parseQuery(rawQuery, runtime.query?.schema);
    const token = typeof raw.token === 'string' && raw.token.length > 0 ? raw.token : null;
    delete raw.token;
    if (runtime.registered.definition.auth !== 'open' && env.authenticate !== null) {
      const auth = await env.authenticate({ token, ip, path, transport: 'websocket' });
      if (!auth.ok)
        return {
          query: {},
          refusal: { code: 1008, reason: auth.detail.slice(0, 120) },
          principal: null,
        };
      return this.withQuery(runtime, raw, auth.principal);
    }
    return this.withQuery(runtime, raw, null);
  }

  private withQuery(
    runtime: StreamRuntime,
    raw: Record<string, unknown>,
    principal: SocketData['principal'],
  ): SocketData {
    if (runtime.query === undefined) return { query: raw, refusal: null, principal };
    const parsed = runtime.query.parse(raw, { coerce: true });
    if (!parsed.ok) {
      return {
        query: {},
        refusal: {
          code: 1008,
          reason: `invalid query '${parsed.failure.field}': ${parsed.failure.message}`.slice(
            0,
            120,
          ),
        },
        principal,
      };
    }
    return { query: parsed.value as Record<string, unknown>, refusal: null, principal };
  }

  private invoke(
    env: StreamEnvironment,
    path: string,
    fn: () => void | Promise<void> | undefined,
  ): void {
    try {
      const result = fn();
      if (result instanceof Promise)
        result.catch((error: unknown) => env.logger.error(`stream ${path} hook failed`, { error }));
    } catch (error) {
      env.logger.error(`stream ${path} hook failed`, { error });
    }
  }
}

function isPing(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed === 'ping') return true;
  if (!trimmed.startsWith('{')) return false;
  try {
    return (JSON.parse(trimmed) as { type?: unknown }).type === 'ping';
  } catch {
    return false;
  }
}
