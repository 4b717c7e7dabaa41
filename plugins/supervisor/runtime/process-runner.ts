/**
 * One supervised process: its state machine (stopped → starting → running → stopping → stopped;
 * crashed and backoff after unexpected exits), pre-start waits, the immediate-exit check, group
 * stop, auto-restart and health-triggered restarts. Operations are serialized per process; a
 * stop cancels a start that is still waiting. No HTTP knowledge. What it knows between operations
 * is a {@link RunnerState}, shared with the parts it hands work to: adoption
 * (adoption/runner-adoption.ts), the limit reaction (limit-reaction.ts) and the reaction
 * to an unexpected exit (exit-reaction.ts).
 */
import type { ProcessState } from '../../../sdk/index.js';
import type { ProcessSpec } from '../process-spec/process-spec.js';
import { HealthMonitor } from './health-monitor.js';
import type { LaunchedProcess } from './launch.js';
import { recordedCgroup, type LaunchCgroup } from '../cgroups/launch-cgroup.js';
import type { AdoptionStamp, RunnerDeps, StartOutcome } from './runner-types.js';
import { runStartSequence } from './start-sequence.js';
import { stopLaunched } from './stop-launched.js';
import type { RecordedGroup } from './launch-records.js';
import type { PendingRestart } from '../adoption/pending-restarts.js';
import { adoptGroup, handOver, resumeBackoff } from '../adoption/runner-adoption.js';
import { reactToLimit } from './limit-reaction.js';
import { afterUnexpectedExit, onExit, onUnhealthy } from './exit-reaction.js';
import { launchIdOf, RunnerState, SECONDS, type RunnerMoves } from './runner-state.js';

/** A supervised process. */
export class ProcessRunner {
  private readonly run: RunnerState;
  private pendingStart: Promise<StartOutcome> | undefined;
  /** What adoption, the limit reaction and the exit reaction call back into. */
  private readonly moves: RunnerMoves = {
    beginStart: (stopFirst, kind) => this.beginStart(stopFirst, kind),
    watch: (process, spec) => this.watch(process, spec),
    doStop: (why, cutShort) => this.doStop(why, cutShort),
    afterUnexpectedExit: (process, spec, info, message) =>
      afterUnexpectedExit(this.run, this.moves, { process, spec, info, message }),
  };

  constructor(deps: RunnerDeps) {
    this.run = new RunnerState(deps);
  }

  /** A copy of the live state. */
  state(): ProcessState {
    return this.run.state();
  }

  /** The pid while a process is launched. */
  get pid(): number | null {
    return this.run.launched?.process.pid ?? null;
  }

  /** The launched process's cgroup (null without a launch or where it has none). */
  get cgroup(): LaunchCgroup | null {
    return this.run.launched?.process.cgroup ?? null;
  }

  /** The adoption of the running process, or undefined when this host launched it. */
  adoptedBy(): AdoptionStamp | undefined {
    return this.run.launched === undefined ? undefined : this.run.adoption;
  }

  /** Take over a process a previous host launched (see {@link adoptGroup}). */
  adopt(group: RecordedGroup, stamp: AdoptionStamp): Promise<void> {
    return adoptGroup(this.run, this.moves, group, stamp);
  }

  /** Resume a restart backoff a previous host left, due when it was due. */
  resumeBackoff(pending: PendingRestart): void {
    resumeBackoff(this.run, this.moves, pending);
  }

  /** A planned handover: the process keeps running for the next host to adopt. */
  handOver(): Promise<void> {
    return handOver(this.run);
  }

  /** Start (a no-op when running; joins a start in progress). Resolves running or failed. */
  start(): Promise<StartOutcome> {
    if (this.run.record.get().status === 'running' && this.run.launched !== undefined)
      return Promise.resolve({ state: this.state(), failure: null });
    return this.pendingStart ?? this.beginStart(false, 'manual');
  }

  /** Stop: graceful signal to the group, SIGKILL after the stop timeout. Disables auto-restart. */
  stop(): Promise<ProcessState> {
    this.run.autoRestartAllowed = false;
    this.cancelPending();
    return this.run.queue.run(() => this.doStop('stop requested'));
  }

  /** Stop (when running), then start. */
  restart(): Promise<StartOutcome> {
    this.cancelPending();
    this.run.deps.logger.info(`${this.run.deps.processName}: restarting (restart requested)`);
    return this.beginStart(true, 'manual');
  }

  /** Host shutdown: no more restarts; `cutShort` ends the grace time early (then SIGKILL). */
  shutdown(cutShort: AbortSignal): Promise<ProcessState> {
    this.run.hostStopping = true;
    this.run.autoRestartAllowed = false;
    this.cancelPending();
    return this.run.queue.run(() => this.doStop('stackd is stopping', cutShort));
  }

  private beginStart(stopFirst: boolean, kind: 'manual' | 'auto'): Promise<StartOutcome> {
    const { deps } = this.run;
    const started = this.run.queue.run(async () => {
      await deps.launches.pendingRestart(deps.processName, null);
      if (stopFirst) await this.doStop('restart requested');
      return this.doStart(kind);
    });
    this.pendingStart = started;
    void started.finally(() => {
      if (this.pendingStart === started) this.pendingStart = undefined;
    });
    return started;
  }

  private cancelPending(): void {
    this.run.startAbort?.abort();
    this.run.restarts.cancel();
  }

  private async doStart(kind: 'manual' | 'auto'): Promise<StartOutcome> {
    const { run } = this;
    const { deps } = run;
    if (run.hostStopping) return run.outcome('cancelled', 'the host is stopping');
    run.restarts.cancel();
    if (run.launched !== undefined && run.record.get().status === 'running')
      return run.outcome(null);
    if (kind === 'manual') {
      run.autoRestartAllowed = true;
      run.restarts.reset();
    } else if (!run.autoRestartAllowed) {
      return run.outcome('cancelled', 'auto-restart was cancelled');
    }
    let spec: ProcessSpec;
    try {
      spec = deps.resolveSpec();
    } catch (error) {
      return run.fail('config', `invalid configuration: ${messageOf(error)}`);
    }
    // Leftovers of a crashed predecessor go first, or this would run next to its duplicate.
    await deps.launches.ready();
    const abort = new AbortController();
    run.startAbort = abort;
    run.set({ status: 'starting', pid: null, exit_code: null, started_at: null, reason: null });
    const marker = deps.launches.newMarker();
    const step = await runStartSequence(spec, {
      marker,
      createCgroup: async () =>
        (await deps.cgroups?.create(deps.processName, launchIdOf(marker.value), spec.limits)) ??
        null,
      recordLaunch: (launched) =>
        deps.launches.recorded(deps.processName, launched.pid, launched.marker, {
          started_at: launched.startedAt,
          restarts: run.record.get().restarts + (run.launches >= 1 ? 1 : 0),
          fingerprint: deps.fingerprint?.() ?? '',
          fifos: launched.fifos !== null,
          cgroup: launched.cgroup === null ? null : recordedCgroup(launched.cgroup),
        }),
      fifoDir: deps.launches.fifoDir(),
      processName: deps.processName,
      signal: abort.signal,
      startCheckMs: deps.startCheckMs,
      output: deps.openOutput(spec),
      logger: deps.logger,
      onWaiting: (what) => run.set({ reason: `waiting for ${what}` }),
      onLaunched: (launched) => {
        run.launched = { process: launched, spec };
        run.adoption = undefined;
        run.launches += 1;
        run.set({
          pid: launched.pid,
          started_at: launched.startedAt,
          restarts: run.record.get().restarts + (run.launches > 1 ? 1 : 0),
          reason: 'checking that it stays up',
        });
      },
    });
    if (step.kind === 'failed') return run.fail(step.failure, step.message);
    if (step.kind === 'cancelled') {
      // Once launched, the stop that cancelled the start ends the process.
      if (step.launched) return run.outcome('cancelled', 'stopped while starting');
      run.set({ status: 'stopped', pid: null, reason: null });
      return run.outcome('cancelled', 'stopped while waiting to start');
    }
    if (step.kind === 'exited') {
      await this.moves.afterUnexpectedExit(step.process, spec, step.info, step.message);
      return run.outcome('exited', step.message);
    }
    const { process } = step;
    run.startAbort = undefined;
    run.set({ status: 'running', reason: null });
    // Every launch gets its line, so the host log alone tells each process's story.
    deps.logger.info(
      `${deps.processName}: running (pid ${process.pid}${kind === 'auto' ? ', after an automatic restart' : ''})`,
    );
    this.watch(process, spec);
    return run.outcome(null);
  }

  /** Follow a running process: its exit, its limits and its health checks. */
  private watch(process: LaunchedProcess, spec: ProcessSpec): void {
    const { run, moves } = this;
    void process.exited.then((info) => onExit(run, moves, process, spec, info));
    run.limitWatch =
      run.deps.cgroups?.watch?.(
        run.deps.processName,
        process.pid,
        process.cgroup,
        spec.limits,
        (breach) => reactToLimit(run, moves, process, spec, breach),
      ) ?? null;
    if (spec.health !== null) {
      run.health = new HealthMonitor(process.pid, spec.health, (reason) =>
        onUnhealthy(run, moves, process, spec, reason),
      );
      run.health.start();
    }
  }

  private async doStop(why: string, cutShort?: AbortSignal): Promise<ProcessState> {
    const { run } = this;
    const { deps } = run;
    run.endWatches();
    await deps.launches.pendingRestart(deps.processName, null);
    const launched = run.launched;
    if (launched === undefined) {
      run.set({
        status: 'stopped',
        pid: null,
        reason: run.record.get().status === 'stopped' ? run.record.get().reason : null,
      });
      return run.state();
    }
    const { process, spec } = launched;
    run.expectedExit = process;
    run.set({ status: 'stopping', reason: null });
    const result = await stopLaunched(process, spec, cutShort);
    if (result.survived)
      deps.logger.error(`${deps.processName}: group ${process.pid} survived SIGKILL`);
    else await deps.launches.forget(process.pid);
    run.launched = undefined;
    // Once it is no longer the launch, its exit is ignored anyway: holding it would keep the old
    // ChildProcess, its output streams and tail alive until the next stop.
    if (run.expectedExit === process) run.expectedExit = undefined;
    deps.cgroups?.ended?.(deps.processName);
    deps.logger.info(
      `${deps.processName}: stopped (pid ${process.pid}, ${why}${result.killed ? ', killed with SIGKILL after the stop timeout' : ''})`,
    );
    run.set({
      status: 'stopped',
      pid: null,
      exit_code: result.info.exitCode,
      reason: result.killed
        ? `killed with SIGKILL after the ${SECONDS(spec.stopTimeoutMs)} stop timeout`
        : null,
    });
    return run.state();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
