/**
 * Per-client outbound flow control. uWS's own `publish` silently drops frames once a socket is
 * past `maxBackpressure`, so we send only while the socket's buffer is under a high-water mark
 * and apply the stream's overflow policy to what cannot be sent yet — counting every drop.
 */
import type { OverflowPolicy } from '../../sdk/stream.js';

/** The part of a socket flow control needs (a uWS WebSocket, or a fake in unit tests). */
export interface FlowSocket {
  /** uWS semantics: 1 sent, 0 sent but backpressure built up, 2 dropped. */
  send(frame: Frame): number;
  getBufferedAmount(): number;
  end(code: number, reason: string): void;
}

/**
 * A text frame: a string, or its UTF-8 bytes encoded once for every client of a publish (uWS
 * would otherwise convert the same string once per socket).
 */
export type Frame = string | Buffer;

/** Default high-water mark: above this many buffered bytes we stop sending and queue. */
export const HIGH_WATER_BYTES = 256 * 1024;

/** Flow control of one client socket. */
export class OutboundQueue {
  private readonly pending: Frame[] = [];
  private waiters: Array<() => void> = [];
  private droppedCount = 0;
  private closed = false;

  constructor(
    private readonly socket: FlowSocket,
    private readonly policy: OverflowPolicy,
    private readonly maxQueue: number,
    private readonly highWater: number = HIGH_WATER_BYTES,
  ) {}

  /** Frames dropped so far by the policy. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Frames waiting for the socket to drain. */
  get queued(): number {
    return this.pending.length;
  }

  /** Whether a frame offered now would be sent at once (paced senders check this). */
  get ready(): boolean {
    return (
      !this.closed && this.pending.length === 0 && this.socket.getBufferedAmount() < this.highWater
    );
  }

  /** Resolves once {@link ready} holds again, or the queue is closed. */
  whenReady(): Promise<void> {
    if (this.ready || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Offer a frame: sent now, queued, replaced, dropped or the client closed, per policy. A
   * `paced` frame (its sender waits for {@link ready} before each batch) is queued instead: the
   * queue then holds at most the rest of one batch.
   */
  offer(frame: Frame, paced = false): void {
    if (this.closed) return;
    if (this.pending.length === 0 && this.socket.getBufferedAmount() < this.highWater) {
      this.transmit(frame);
      return;
    }
    if (paced) {
      this.pending.push(frame);
      return;
    }
    switch (this.policy) {
      case 'latest-only':
        this.droppedCount += this.pending.length;
        this.pending.length = 0;
        this.pending.push(frame);
        return;
      case 'drop-oldest':
        this.pending.push(frame);
        while (this.pending.length > this.maxQueue) {
          this.pending.shift();
          this.droppedCount += 1;
        }
        return;
      case 'close':
        this.closed = true;
        this.socket.end(1013, 'client too slow: message backlog exceeded');
        return;
    }
  }

  /**
   * After frames went to the socket around this queue (uWS's own fan-out to a topic's
   * subscribers, see StreamRuntime.broadcast): a socket left past the mark is closed (1013), as
   * {@link offer} would have closed it. Only the `close` policy can be kept this way: a frame
   * already handed to uWS cannot be dropped or replaced afterwards.
   */
  closeIfOverMark(): void {
    if (this.closed || this.socket.getBufferedAmount() < this.highWater) return;
    this.closed = true;
    this.socket.end(1013, 'client too slow: message backlog exceeded');
  }

  /** Called on the socket's drain event: send what the buffer allows. */
  drain(): void {
    while (
      !this.closed &&
      this.pending.length > 0 &&
      this.socket.getBufferedAmount() < this.highWater
    ) {
      this.transmit(this.pending.shift() as Frame);
    }
    if (this.ready) this.wake();
  }

  /** Stop sending (socket closed). */
  close(): void {
    this.closed = true;
    this.pending.length = 0;
    this.wake();
  }

  private wake(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  private transmit(frame: Frame): void {
    if (this.socket.send(frame) === 2) this.droppedCount += 1; // cannot happen below our mark; counted if it does
  }
}
