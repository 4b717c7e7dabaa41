/**
 * A runner's side of a host handover: taking over a process a previous host launched, resuming
 * the restart backoff it left, and leaving processes running for the next host.
 */
import type { RecordedGroup } from '../runtime/launch-records.js';
import type { AdoptionStamp } from '../runtime/runner-types.js';
import { launchIdOf, type RunnerMoves, type RunnerState } from '../runtime/runner-state.js';
import { adoptedProcess } from './adopted-process.js';
import type { PendingRestart } from './pending-restarts.js';

/**
 * Take over a process a previous host launched (the launch book verified it): running with
 * its original start time and restart counter, exit watch and health checks resumed. When its
 * configuration changed while no host ran, it is restarted, saying why.
 */
export function adoptGroup(
  run: RunnerState,
  moves: RunnerMoves,
  group: RecordedGroup,
  stamp: AdoptionStamp,
): Promise<void> {
  const { deps } = run;
  return run.queue.run(async () => {
    const spec = deps.resolveSpec();
    const fifoDir = deps.launches.fifoDir();
    // Its cgroup stays its own: a stop still reaches every descendant that left the group.
    const cgroup =
      (await deps.cgroups?.existing?.(
        deps.processName,
        launchIdOf(group.marker),
        group.adoption?.cgroup,
      )) ?? null;
    const process = adoptedProcess(group, fifoDir, deps.openOutput(spec), cgroup);
    run.launched = { process, spec };
    run.adoption = stamp;
    run.launches = 1;
    run.set({
      status: 'running',
      pid: process.pid,
      exit_code: null,
      started_at: process.startedAt,
      restarts: group.adoption?.restarts ?? 0,
      reason: null,
    });
    moves.watch(process, spec);
    if (group.adoption?.fingerprint !== (deps.fingerprint?.() ?? '')) {
      deps.logger.warn(
        `${deps.processName}: its configuration changed while no host ran; restarting it`,
      );
      void moves.beginStart(true, 'manual');
    }
    return Promise.resolve();
  });
}

/** Resume a restart backoff a previous host left, due when it was due. */
export function resumeBackoff(run: RunnerState, moves: RunnerMoves, pending: PendingRestart): void {
  run.set({ status: 'backoff', restarts: pending.restarts, reason: pending.reason });
  run.launches = 1;
  void run.deps.launches.pendingRestart(run.deps.processName, pending);
  run.restarts.schedule(
    Math.max(0, pending.due_at - Date.now()),
    () => void moves.beginStart(false, 'auto'),
  );
}

/**
 * A planned handover: no restarts, no health checks, output left in its FIFOs — the process
 * keeps running (its launch record and pending restart stay) for the next host to adopt.
 */
export function handOver(run: RunnerState): Promise<void> {
  run.hostStopping = true;
  run.autoRestartAllowed = false;
  run.startAbort?.abort();
  run.restarts.cancel();
  run.health?.stop();
  run.launched?.process.detachOutput();
  return run.queue.run(() => Promise.resolve());
}
