/**
 * WebSocket streams. A plugin declares a stream and publishes messages; core owns the sockets,
 * the auth gate (`?token=`), fan-out (serialized once per publish) and backpressure.
 */
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { AuthMode, Principal } from './http.js';

/**
 * What happens when a client cannot keep up:
 * - `latest-only`: only the newest pending message is kept (snapshots, status frames);
 * - `drop-oldest`: a bounded queue drops its oldest entries and counts them (log lines);
 * - `close`: the slow client is disconnected (code 1013).
 */
export type OverflowPolicy = 'latest-only' | 'drop-oldest' | 'close';

/** One connected client, as a plugin sees it. */
export interface StreamClient<Q = Record<string, unknown>> {
  /** Unique per connection. */
  readonly id: number;
  /** The validated query string. */
  readonly query: Q;
  readonly principal: Principal | null;
  /** Aborted when the socket closes. */
  readonly signal: AbortSignal;
  /** Messages dropped for this client by the overflow policy. */
  readonly dropped: number;
  /**
   * Whether a message sent now goes out at once rather than into the overflow queue. A sender
   * of a long backlog (a replay) paces itself on this and {@link whenReady}.
   */
  readonly ready: boolean;
  /** Resolves once {@link ready} holds again, or the socket closed. */
  whenReady(): Promise<void>;
  /** Send one message (JSON-serialized unless it is a string) to this client only. */
  send(message: unknown): void;
  /**
   * Send several messages, each its own frame, in one write to the socket rather than one write
   * per message (a batch of live events, a replay page); serialized like {@link send}. The
   * overflow policy applies to each message, unless `paced` is set: a sender that waits for
   * {@link ready} before each batch (a replay) has the part the socket cannot take yet held in
   * the client's queue, so at most one batch waits per client and nothing is dropped.
   */
  sendAll(messages: readonly unknown[], options?: { readonly paced?: boolean }): void;
  /** Close the socket with a WebSocket close code and reason. */
  close(code?: number, reason?: string): void;
}

/** A stream a plugin declares with `ctx.stream(...)`. */
export interface StreamDefinition<Q extends TObject = TObject, M extends TSchema = TSchema> {
  /** Path such as `/ws/logs`; core adds the `/api` alias. */
  readonly path: string;
  /** Defaults to `required`: a bearer access token in `?token=` when auth is enabled. */
  readonly auth?: AuthMode;
  readonly summary: string;
  readonly description?: string;
  /** Query parameters, coerced and validated at upgrade. */
  readonly query?: Q;
  /** Schema of the messages the server sends (documentation and tests). */
  readonly message: M;
  readonly overflow: OverflowPolicy;
  /** Queue length per client for `drop-oldest` (default 1024). */
  readonly maxQueue?: number;
  /** Called once the socket is open and authenticated: send the initial frame here. */
  readonly onOpen?: (client: StreamClient<Static<Q>>) => void | Promise<void>;
  /**
   * Called for each client text message other than `ping` (core answers `ping` and
   * `{"type":"ping"}` with `pong` on every stream).
   */
  readonly onMessage?: (client: StreamClient<Static<Q>>, text: string) => void | Promise<void>;
  readonly onClose?: (client: StreamClient<Static<Q>>) => void;
}

/** Returned by `ctx.stream(...)`: publish to every (or some) connected client. */
export interface StreamHandle<Q = Record<string, unknown>, M = unknown> {
  /**
   * Send one message to every client for which `filter` returns true. The message is
   * serialized once, whatever the number of clients.
   */
  publish(message: M, filter?: (client: StreamClient<Q>) => boolean): void;
  /** Connected clients right now. */
  readonly clientCount: number;
}
