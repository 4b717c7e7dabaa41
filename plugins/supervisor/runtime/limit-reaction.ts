/**
 * A runner's reaction to a limit: a breach its watch saw is told, then acted on by `on_limit`
 * (notify only, stop, or restart as after a crash); an OOM kill by the kernel is told as such,
 * naming the limit, not as a bare SIGKILL.
 */
import type { ProcessSpec } from '../process-spec/process-spec.js';
import type { LaunchedProcess } from './launch.js';
import type { RunningLimitWatch } from './runner-types.js';
import type { RunnerMoves, RunnerState } from './runner-state.js';
import { stopLaunched } from './stop-launched.js';
import type { LimitBreach } from '../limits/limit-watch.js';

/** A limit was hit: tell it, then act by `on_limit`. */
export function reactToLimit(
  run: RunnerState,
  moves: RunnerMoves,
  process: LaunchedProcess,
  spec: ProcessSpec,
  breach: LimitBreach,
): void {
  const { deps } = run;
  deps.logger.warn(`${deps.processName}: ${breach.reason}`);
  deps.onLimit?.(deps.processName, breach);
  if (breach.action === 'notify') return;
  void run.queue.run(async () => {
    if (!run.runs(process)) return;
    const message = `${deps.processName} was ${breach.reason}`;
    if (breach.action === 'stop') {
      run.autoRestartAllowed = false;
      await moves.doStop(breach.reason);
      run.set({ reason: message });
      return;
    }
    run.expectedExit = process;
    run.set({ status: 'stopping', reason: message });
    const { info } = await stopLaunched(process, spec);
    await moves.afterUnexpectedExit(process, spec, info, message);
  });
}

/**
 * The kernel's words when it OOM-killed a member of the launch `watch` follows, told as a
 * breach of `memory_max`; null when the kernel killed nothing.
 */
export async function kernelKill(
  run: RunnerState,
  watch: RunningLimitWatch | null,
  spec: ProcessSpec,
): Promise<string | null> {
  const kernel = (await watch?.kernelReason()) ?? null;
  if (kernel !== null) run.deps.onLimit?.(run.deps.processName, kernelBreach(kernel, spec));
  return kernel;
}

function kernelBreach(reason: string, spec: ProcessSpec): LimitBreach {
  return { reason, action: spec.limits?.onLimit ?? 'restart', limit: 'memory_max' };
}
