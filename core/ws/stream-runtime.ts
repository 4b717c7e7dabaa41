/** One stream's runtime state (its clients, compiled schemas) and one connected client. */
import type { Principal } from '../../sdk/http.js';
import type { Logger } from '../../sdk/logger.js';
import type { StreamClient, StreamDefinition, StreamHandle } from '../../sdk/stream.js';
import type { TemplatedApp, WebSocket } from '../http/uws-app.js';
import { compileSchema, type CompiledSchema } from '../schema/compiler.js';
import type { OutboundQueue, Frame } from './backpressure.js';

/** Bytes of frames broadcast between two checks of the subscribers' buffers (far under 64 MiB). */
const BROADCAST_CHUNK_BYTES = 1024 * 1024;

/** What uWS keeps per socket (copied at upgrade: mutate fields, never replace the object). */
export interface SocketData {
  readonly query: Record<string, unknown>;
  readonly refusal: { code: number; reason: string } | null;
  readonly principal: Principal | null;
  client?: HubClient;
}

/** A declared stream, as the hub keeps it. */
export interface RegisteredStream {
  readonly owner: string;
  readonly definition: StreamDefinition;
  readonly paths: readonly string[];
}

/** A connected client as plugins see it, with its flow-control queue. */
export class HubClient implements StreamClient {
  private readonly controller = new AbortController();
  /**
   * False once the socket closed. A plain field: the hot path (a publish to a thousand clients)
   * read `signal.aborted` per client, two getters that each check their receiver.
   */
  private open = true;
  constructor(
    readonly id: number,
    readonly query: Record<string, unknown>,
    readonly principal: SocketData['principal'],
    private readonly socket: WebSocket<SocketData>,
    readonly queue: OutboundQueue,
  ) {}
  get signal(): AbortSignal {
    return this.controller.signal;
  }
  get dropped(): number {
    return this.queue.dropped;
  }
  get ready(): boolean {
    return this.open && this.queue.ready;
  }
  whenReady(): Promise<void> {
    return this.queue.whenReady();
  }
  send(message: unknown): void {
    this.sendFrame(typeof message === 'string' ? message : JSON.stringify(message));
  }
  sendAll(messages: readonly unknown[], options?: { readonly paced?: boolean }): void {
    if (!this.open) return;
    const paced = options?.paced === true;
    this.socket.cork(() => {
      for (const message of messages)
        this.queue.offer(typeof message === 'string' ? message : JSON.stringify(message), paced);
    });
  }
  /**
   * One frame needs no cork of ours: uWS corks a single send itself (header and payload leave
   * in one write, checked with strace), and an explicit cork is a call into C++ and back into
   * JS for every client of a publish.
   */
  sendFrame(frame: Frame): void {
    if (this.open) this.queue.offer(frame);
  }
  /** Receive what {@link StreamRuntime.broadcast} sends to `topic`, until the socket closes. */
  subscribe(topic: string): void {
    if (this.open) this.socket.subscribe(topic);
  }
  close(code = 1000, reason = ''): void {
    if (!this.open) return;
    this.socket.end(code, reason);
  }
  markClosed(): void {
    this.open = false;
    this.queue.close();
    this.controller.abort();
  }
}

/** A declared stream: its clients and the handle plugins publish through. */
export class StreamRuntime implements StreamHandle {
  readonly clients = new Set<HubClient>();
  readonly query: CompiledSchema | undefined;
  readonly message: CompiledSchema;
  validateMessages = false;
  logger: Logger | undefined;
  /** The app the stream is bound to (uWS's topics live there). */
  app: TemplatedApp | undefined;

  constructor(readonly registered: RegisteredStream) {
    this.query =
      registered.definition.query === undefined
        ? undefined
        : compileSchema(registered.definition.query);
    this.message = compileSchema(registered.definition.message);
  }

  get clientCount(): number {
    return this.clients.size;
  }

  publish(message: unknown, filter?: (client: StreamClient) => boolean): void {
    if (this.clients.size === 0) return;
    if (this.validateMessages) {
      const failure = this.message.firstError(message);
      if (failure !== undefined) {
        this.logger?.error(
          `stream ${this.registered.definition.path}: message field '${failure.field}' does not match its schema: ${failure.message}`,
        );
        return;
      }
    }
    // Encoded once: every client gets the same bytes.
    const frame = Buffer.from(
      typeof message === 'string' ? message : JSON.stringify(message),
      'utf8',
    );
    for (const client of this.clients) {
      if (filter === undefined || filter(client)) client.sendFrame(frame);
    }
  }

  /**
   * Send `frames` to every client subscribed to `topic`, in order: uWS writes each frame to every
   * subscriber in C++, instead of one call per frame and client from here. Core streams with the
   * `close` overflow policy only: afterwards each of `subscribers` left past the high-water mark
   * is closed with 1013, as its queue would have done. Frames go out in chunks of at most
   * BROADCAST_CHUNK_BYTES with that check between them, so no subscriber nears uWS's own
   * `maxBackpressure`, past which uWS would skip frames silently.
   */
  broadcast(topic: string, frames: readonly string[], subscribers: Iterable<HubClient>): void {
    const { app } = this;
    if (app === undefined) return;
    if (this.registered.definition.overflow !== 'close')
      throw new Error(
        `stream ${this.registered.definition.path}: broadcast needs overflow 'close'`,
      );
    let chunkBytes = 0;
    for (const frame of frames) {
      app.publish(topic, frame, false);
      chunkBytes += frame.length;
      if (chunkBytes >= BROADCAST_CHUNK_BYTES) {
        chunkBytes = 0;
        for (const client of subscribers) client.queue.closeIfOverMark();
      }
    }
    for (const client of subscribers) client.queue.closeIfOverMark();
  }
}
