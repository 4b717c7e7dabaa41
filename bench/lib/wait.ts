/** Poll until a condition holds (benchmarks wait for states, never for fixed times). */
import { setTimeout as sleep } from 'node:timers/promises';

/** Call `read` every `everyMs` until `done(value)`; rejects after `timeoutMs`. */
export async function waitFor<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs: number,
  everyMs = 50,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}
