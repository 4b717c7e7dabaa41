/** `ctx.tasks`: background work cancelled and awaited at stop. */
import type { Logger } from '../../sdk/logger.js';
import type { TaskHandle, TaskRunner } from '../../sdk/tasks.js';

/** Background tasks of one plugin. */
export class PluginTasks implements TaskRunner {
  private readonly controller = new AbortController();
  private readonly running = new Set<Promise<unknown>>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly logger: Logger) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  every(
    name: string,
    intervalMs: number,
    fn: (signal: AbortSignal) => Promise<void> | void,
  ): TaskHandle {
    let cancelled = false;
    let timer: NodeJS.Timeout | undefined;
    const schedule = (): void => {
      if (cancelled || this.signal.aborted) return;
      timer = setTimeout(() => {
        if (timer !== undefined) this.timers.delete(timer);
        const run = this.track(Promise.resolve().then(() => fn(this.signal)));
        run
          .catch((error: unknown) => this.logger.error(`task ${name} failed`, { error }))
          .finally(schedule);
      }, intervalMs);
      timer.unref();
      this.timers.add(timer);
    };
    schedule();
    return {
      cancel: () => {
        cancelled = true;
        if (timer !== undefined) {
          clearTimeout(timer);
          this.timers.delete(timer);
        }
      },
    };
  }

  run<T>(name: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const promise = this.track(Promise.resolve().then(() => fn(this.signal)));
    promise.catch((error: unknown) => this.logger.error(`task ${name} failed`, { error }));
    return promise;
  }

  /** Abort every task and wait (bounded by the caller) for the running ones to end. */
  async stop(): Promise<void> {
    this.controller.abort(new Error('host stopping'));
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.running.add(promise);
    void promise.finally(() => this.running.delete(promise)).catch(() => undefined);
    return promise;
  }
}
