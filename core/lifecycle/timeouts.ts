import { BootError } from '../errors/boot-error.js';
/** Run a lifecycle step with a time budget; its signal aborts when the budget runs out. */

/**
 * Run `step`; reject naming `label` when it takes longer than `ms`. The step's signal aborts
 * `noticeMs` before that (a stop hook's last chance to force things), else at the deadline.
 */
export async function runBounded<T>(
  label: string,
  ms: number,
  step: (signal: AbortSignal) => Promise<T> | T,
  noticeMs = 0,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const notice =
    noticeMs > 0 && ms > noticeMs
      ? setTimeout(
          () => controller.abort(new Error(`${label}: ${noticeMs} ms of its budget left`)),
          ms - noticeMs,
        )
      : undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new BootError('STACKD_HOOK_TIMEOUT', `${label} did not finish within ${ms} ms`);
      controller.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => step(controller.signal)), timeout]);
  } finally {
    clearTimeout(timer);
    clearTimeout(notice);
  }
}
