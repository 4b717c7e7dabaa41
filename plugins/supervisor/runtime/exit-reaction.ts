/**
 * A runner's reaction to its process going away unexpectedly (an exit nobody asked for, a failed
 * health check): the crash is told with its outcome, the rest of the launch is ended, and a
 * restart is scheduled with backoff unless the policy gives up or restarts are off.
 */
import { kernelKill } from './limit-reaction.js';
import type { ProcessSpec } from '../process-spec/process-spec.js';
import type { RestartDecision } from '../process-spec/restart-policy.js';
import { crashLine, logCrash } from './crash-line.js';
import { exitText, type ExitInfo, type LaunchedProcess } from './launch.js';
import { SECONDS, type RunnerMoves, type RunnerState } from './runner-state.js';
import { endRemnants, stopLaunched } from './stop-launched.js';

/** The launched process exited: unless a stop expected it, a crash. */
export function onExit(
  run: RunnerState,
  moves: RunnerMoves,
  process: LaunchedProcess,
  spec: ProcessSpec,
  info: ExitInfo,
): void {
  if (run.expectedExit === process || run.launched?.process !== process) return;
  const watch = run.limitWatch;
  void run.queue.run(async () => {
    const kernel = await kernelKill(run, watch, spec);
    const message =
      kernel === null
        ? `${run.deps.processName} exited unexpectedly (${exitText(info)})`
        : `${run.deps.processName} was ${kernel}`;
    await moves.afterUnexpectedExit(process, spec, info, message);
  });
}

/** A health check failed: stop the process, then react as to a crash. */
export function onUnhealthy(
  run: RunnerState,
  moves: RunnerMoves,
  process: LaunchedProcess,
  spec: ProcessSpec,
  reason: string,
): void {
  void run.queue.run(async () => {
    if (!run.runs(process)) return;
    run.deps.logger.warn(`${run.deps.processName}: unhealthy: ${reason}; restarting`);
    run.expectedExit = process;
    run.set({ status: 'stopping', reason: `unhealthy: ${reason}` });
    const { info } = await stopLaunched(process, spec);
    await moves.afterUnexpectedExit(
      process,
      spec,
      info,
      `${run.deps.processName} was unhealthy: ${reason}`,
    );
  });
}

/** The process is gone unexpectedly: clean up its group, then restart with backoff or give up. */
export async function afterUnexpectedExit(
  run: RunnerState,
  moves: RunnerMoves,
  exit: { process: LaunchedProcess; spec: ProcessSpec; info: ExitInfo; message: string },
): Promise<void> {
  const { process, spec, info, message } = exit;
  if (run.launched?.process !== process) return;
  run.endWatches();
  // Decided before the clean-up below, so the state never shows a crash without its outcome.
  const { decision, notRestarted } = decideRestart(run, spec, info, process.startedAt);
  logCrash(run.deps.logger, crashLine(message, process.pid, decision, notRestarted));
  run.set({
    status: 'crashed',
    pid: null,
    exit_code: info.exitCode,
    reason: decision?.action === 'give-up' ? `${message}; ${decision.reason}` : message,
  });
  // Orphaned grandchildren would hold ports and files: end the rest of the launch too.
  await endRemnants(process, spec);
  await run.deps.launches.forget(process.pid);
  run.launched = undefined;
  if (run.expectedExit === process) run.expectedExit = undefined;
  run.deps.cgroups?.ended?.(run.deps.processName);
  if (decision === null || decision.action === 'give-up') return;
  if (!run.autoRestartAllowed || run.hostStopping) return;
  const reason = `${message}; restart ${decision.attempt} in ${SECONDS(decision.delayMs)}`;
  run.set({ status: 'backoff', reason });
  const { restarts } = run.record.get();
  const due_at = Date.now() + decision.delayMs;
  await run.deps.launches.pendingRestart(run.deps.processName, { due_at, restarts, reason });
  run.restarts.schedule(decision.delayMs, () => void moves.beginStart(false, 'auto'));
}

/** Whether the crash is followed by a restart (the policy's decision), and why not when not. */
function decideRestart(
  run: RunnerState,
  spec: ProcessSpec,
  info: ExitInfo,
  startedAt: number,
): { decision: RestartDecision | null; notRestarted: string } {
  const restartable = spec.autoRestart && run.autoRestartAllowed && !run.hostStopping;
  const decision = restartable ? run.restarts.decide(spec, info, startedAt) : null;
  const notRestarted = run.hostStopping
    ? 'stackd is stopping'
    : spec.autoRestart
      ? 'it was stopped by request'
      : 'auto_restart is off';
  return { decision, notRestarted };
}
