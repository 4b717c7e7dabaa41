/**
 * Tracks one uWS response: whether the client aborted and whether we already answered. After
 * abort the native `res` must never be touched again. The AbortSignal is made only when someone
 * asks for it: most requests never need one, and making it costs more than the rest of a
 * small request's bookkeeping.
 */
import type { HttpResponse } from './uws-app.js';

const ABORTED = new Error('client aborted the request');

/** Told once with the status and the seconds taken when the response ends (not on abort). */
export interface FinishObserver {
  observe(status: number, seconds: number): void;
}

/** Wraps a uWS response with abort tracking (register it first thing in the handler). */
export class ResponseState {
  private controller: AbortController | undefined;
  private listeners: Array<() => void> | undefined;
  private done = false;
  private abortedFlag = false;
  private watching = false;
  private observer: FinishObserver | undefined;
  private startedAt = 0;
  /**
   * True while uWS's request callback runs: uWS has corked the socket itself then, so a write
   * needs no `cork` of its own, and no abort can be delivered yet.
   */
  private insideCallback = false;
  /** The status written, once the head went out (0 before). */
  status = 0;

  constructor(
    readonly res: HttpResponse,
    answeredInCallback = false,
  ) {
    if (answeredInCallback) this.insideCallback = true;
    else this.watchAbort();
  }

  /**
   * A state for a response that may be answered within uWS's callback. Registering the abort
   * handler costs a native handle per request, and uWS needs one only for a response still open
   * when its callback returns: {@link leaveCallback} registers it then.
   */
  static inCallback(res: HttpResponse): ResponseState {
    return new ResponseState(res, true);
  }

  /** The uWS callback returned: later writes cork, and a response still open watches aborts. */
  leaveCallback(): void {
    this.insideCallback = false;
    if (!this.done) this.watchAbort();
  }

  /** Whether a write must cork the socket itself (outside uWS's callback). */
  get needsCork(): boolean {
    return !this.insideCallback;
  }

  private watchAbort(): void {
    if (this.watching) return;
    this.watching = true;
    // uWS requires onAborted before any async work; it fires when the client goes away.
    this.res.onAborted(() => {
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

  /** Tell `observer` the status and the time since `startedAt` (performance.now) at the end. */
  observeWith(observer: FinishObserver, startedAt: number): void {
    this.observer = observer;
    this.startedAt = startedAt;
  }

  /** Mark the response as ended. */
  finish(): void {
    this.done = true;
    const observer = this.observer;
    if (observer === undefined) return;
    this.observer = undefined;
    observer.observe(this.status, (performance.now() - this.startedAt) / 1000);
  }
}
