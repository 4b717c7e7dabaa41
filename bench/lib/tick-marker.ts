/**
 * A WebSocket client of the bench's own on a server that sends one frame per tick: it notes each
 * arrival, so a measuring window can open and close halfway between two ticks and so hold whole
 * ticks only. A window of fixed length holds five or six ticks' work depending on where it
 * falls, which alone moved a CPU-per-frame figure by up to a fifth.
 */
import { WebSocket } from 'undici';

export class TickMarker {
  private arrived = 0;
  private waiters: { readonly at: number; readonly resolve: () => void }[] = [];

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', () => {
      this.arrived += 1;
      const due = this.waiters.filter((waiter) => waiter.at <= this.arrived);
      this.waiters = this.waiters.filter((waiter) => waiter.at > this.arrived);
      for (const waiter of due) waiter.resolve();
    });
  }

  /** Connect to `url`; resolves once the socket is open. */
  static async open(url: string): Promise<TickMarker> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`tick marker: ${url}`)), {
        once: true,
      });
    });
    return new TickMarker(socket);
  }

  /** Resolves once `count` more frames have arrived; rejects after `timeoutMs`. */
  frames(count: number, timeoutMs: number): Promise<void> {
    const at = this.arrived + count;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`tick marker: ${count} frames did not arrive in ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        at,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  close(): void {
    this.socket.close();
  }
}
