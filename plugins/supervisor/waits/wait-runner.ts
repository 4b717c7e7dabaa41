/**
 * Runs the pre-start waits of one start: each item is probed until ready, with a growing pause
 * between tries, all within one shared time budget, and cancelled at once by the stop signal.
 * Everything is timers and async I/O: the event loop never blocks.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { probeDir, probeMount, probeTcp, probeUrl, type ProbeResult } from './probes.js';
import { describeWait, type WaitItem } from './wait-specs.js';

/** The budget ran out; the message names what was still awaited and why. */
export class WaitTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WaitTimeoutError';
  }
}

/** How to wait. */
export interface WaitOptions {
  /** Aborted when the start is cancelled (stop, host shutdown). */
  readonly signal: AbortSignal;
  /** Shared budget of every item, in milliseconds. */
  readonly budgetMs: number;
  /** Told what is awaited now (becomes the `starting` status reason). */
  readonly onWaiting: (what: string) => void;
  /** Told after each probe that found it not ready yet (for debug logs). */
  readonly onNotReady?: (what: string, detail: string) => void;
  /** First pause between tries (default 250 ms); grows ×1.5 up to `maxPauseMs` (default 5 s). */
  readonly firstPauseMs?: number;
  readonly maxPauseMs?: number;
}

function probe(item: WaitItem, remainingMs: number, signal: AbortSignal): Promise<ProbeResult> {
  switch (item.kind) {
    case 'dir':
      return probeDir(item.path);
    case 'mount':
      return probeMount(item.path);
    case 'tcp':
      return probeTcp(item.host, item.port, Math.min(item.timeoutMs, remainingMs), signal);
    case 'url':
      return probeUrl(item, Math.min(item.timeoutMs, remainingMs), signal);
  }
}

/**
 * Wait for every item in order. Resolves when all are ready; rejects with a
 * {@link WaitTimeoutError} when the budget runs out, or with the signal's reason when aborted.
 */
export async function runWaits(items: readonly WaitItem[], options: WaitOptions): Promise<void> {
  const { signal } = options;
  const deadline = Date.now() + options.budgetMs;
  const firstPause = options.firstPauseMs ?? 250;
  const maxPause = options.maxPauseMs ?? 5_000;
  const budget = `${Math.round(options.budgetMs / 100) / 10} s`;
  for (const item of items) {
    const what = describeWait(item);
    options.onWaiting(what);
    let pause = firstPause;
    let lastDetail: string | undefined;
    const timedOut = (): WaitTimeoutError =>
      new WaitTimeoutError(
        `timed out after ${budget} waiting for ${what}${lastDetail === undefined ? '' : ` (${lastDetail})`}`,
      );
    for (;;) {
      signal.throwIfAborted();
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw timedOut();
      const result = await probe(item, remaining, signal);
      signal.throwIfAborted();
      if (result.ready) break;
      lastDetail = result.detail;
      options.onNotReady?.(what, result.detail);
      const left = deadline - Date.now();
      if (left <= 0) throw timedOut();
      await sleep(Math.min(pause, left), undefined, { signal });
      pause = Math.min(maxPause, pause * 1.5);
    }
  }
}
