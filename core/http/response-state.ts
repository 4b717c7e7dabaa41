/**
 * Tracks one uWS response: whether the client aborted and whether we already answered. After
 * abort the native `res` must never be touched again.
 */
import type { HttpResponse } from './uws-app.js';

/** Wraps a uWS response with abort tracking (register it first thing in the handler). */
export class ResponseState {
  private readonly controller = new AbortController();
  private done = false;

  constructor(readonly res: HttpResponse) {
    // uWS requires onAborted before any async work; it fires when the client goes away.
    res.onAborted(() => {
      this.done = true;
      this.controller.abort(new Error('client aborted the request'));
    });
  }

  /** Aborted when the client disconnects. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.controller.signal.aborted;
  }

  /** True once the response ended or the client aborted: nothing more may be written. */
  get finished(): boolean {
    return this.done;
  }

  /** Mark the response as ended. */
  finish(): void {
    this.done = true;
  }
}
