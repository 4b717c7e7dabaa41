/**
 * Tracks one uWS response: whether the client aborted and whether we already answered. After
 * abort the native `res` must never be touched again. The AbortSignal is made only when someone
 * asks for it: most requests never need one, and making it costs more than the rest of a
 * small request's bookkeeping.
 */
import type { HttpResponse } from './uws-app.js';

const ABORTED = new Error('client aborted the request');

/** Wraps a uWS response with abort tracking (register it first thing in the handler). */
export class ResponseState {
  private controller: AbortController | undefined;
  private listeners: Array<() => void> | undefined;
  private done = false;
  private abortedFlag = false;
  private finishListener: ((status: number) => void) | undefined;
  /** The status written, once the head went out (0 before). */
  status = 0;

  constructor(readonly res: HttpResponse) {
    // uWS requires onAborted before any async work; it fires when the client goes away.
    res.onAborted(() => {
      this.done = true;
      this.abortedFlag = true;
      this.controller?.abort(ABORTED);
      for (const listener of this.listeners?.splice(0) ?? []) listener();
    });
  }

  /** Aborted when the client disconnects. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortedFlag) this.controller.abort(ABORTED);
    }
    return this.controller.signal;
  }

  /** Call `listener` once if the client disconnects (at once when it already has). */
  onAbort(listener: () => void): void {
    if (this.abortedFlag) {
      listener();
      return;
    }
    (this.listeners ??= []).push(listener);
  }

  get aborted(): boolean {
    return this.abortedFlag;
  }

  /** True once the response ended or the client aborted: nothing more may be written. */
  get finished(): boolean {
    return this.done;
  }

  /** Call `listener` once with the status when the response ends (not when the client aborts). */
  whenFinished(listener: (status: number) => void): void {
    this.finishListener = listener;
  }

  /** Mark the response as ended. */
  finish(): void {
    this.done = true;
    const listener = this.finishListener;
    if (listener === undefined) return;
    this.finishListener = undefined;
    listener(this.status);
  }
}
