/** Background work owned by a plugin: cancelled (signal aborted) and awaited at stop. */

/** A handle to a repeating task. */
export interface TaskHandle {
  /** Stop repeating; a run in progress sees its signal aborted. */
  cancel(): void;
}

/** Runs background work on behalf of one plugin. */
export interface TaskRunner {
  /**
   * Run `fn` every `intervalMs` (the next run is scheduled after the previous one ends, so runs
   * never overlap). Errors are logged and the task keeps its schedule.
   */
  every(
    name: string,
    intervalMs: number,
    fn: (signal: AbortSignal) => Promise<void> | void,
  ): TaskHandle;
  /** Run `fn` once in the background; the promise settles with it. */
  run<T>(name: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Aborted when the host begins to stop. */
  readonly signal: AbortSignal;
}
