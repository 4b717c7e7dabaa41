/**
 * The supervisor's two runs over every process: the boot start, each process once its hard
 * dependencies settled, and the shutdown in reverse, dependents first and the rest in parallel,
 * with one shared budget after which every remaining grace time ends in SIGKILL.
 */
import { setMaxListeners } from 'node:events';
import type { Logger, ProcessState } from '../../../sdk/index.js';
import { dependentsOf, runOrdered } from './ordered-run.js';
import type { StartOutcome } from './runner-types.js';

/** How a boot start runs. */
export interface BootStart {
  /** name → the names it waits for. */
  readonly dependencies: (name: string) => readonly string[];
  /** Names not started now (a resumed backoff restarts when it was due). */
  readonly skip: ReadonlySet<string>;
  readonly start: (name: string) => Promise<StartOutcome>;
  readonly logger: Logger;
  readonly signal: AbortSignal;
}

/** Start `names` in dependency order; resolves with the names that started and why others failed. */
export async function startInOrder(
  names: readonly string[],
  boot: BootStart,
): Promise<{ started: string[]; failed: Map<string, string> }> {
  const { logger } = boot;
  const failed = new Map<string, string>();
  await runOrdered(names, {
    before: boot.dependencies,
    action: async (name) => {
      // Resuming a backoff: its restart is due when it was due, not now.
      if (boot.skip.has(name)) return true;
      const { failure } = await boot.start(name);
      if (failure !== null) failed.set(name, failure.message);
      return failure === null;
    },
    onFailedPrerequisite: (name, failed) =>
      logger.warn(`${name} starts although its dependencies did not: ${failed.join(', ')}`),
    onCycle: (path) => logger.warn(`dependency cycle ${path.join(' → ')}: edge ignored`),
    signal: boot.signal,
  });
  return { started: names.filter((name) => !failed.has(name)), failed };
}

/** What a shutdown asks of each runner. */
export interface ShutdownTarget {
  /** Stop for good; `cutShort` ends the grace time early (then SIGKILL). */
  shutdown(cutShort: AbortSignal): Promise<ProcessState>;
}

/**
 * Stop every runner, dependents before what they depend on (`dependencies` as at boot); every
 * grace time still running after `budgetMs`, or once `hostDeadline` aborts, ends in SIGKILL.
 */
export async function shutdownInReverse(
  runners: ReadonlyMap<string, ShutdownTarget>,
  dependencies: (name: string) => readonly string[],
  budgetMs: number,
  hostDeadline?: AbortSignal,
): Promise<void> {
  const cutShort = new AbortController();
  // Every stopping process waits on this one signal: more than Node's 10 listeners is expected.
  setMaxListeners(0, cutShort.signal);
  const timer = setTimeout(() => cutShort.abort(), budgetMs);
  // The host's own stop budget ending first turns every remaining grace into SIGKILL now.
  hostDeadline?.addEventListener('abort', () => cutShort.abort(), { once: true });
  const names = [...runners.keys()];
  try {
    await runOrdered(names, {
      before: dependentsOf(names, dependencies),
      action: async (name) => {
        await runners.get(name)?.shutdown(cutShort.signal);
        return true;
      },
    });
  } finally {
    clearTimeout(timer);
  }
}
