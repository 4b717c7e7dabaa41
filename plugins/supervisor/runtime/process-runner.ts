/**
 * One supervised process: its state machine (stopped → starting → running → stopping → stopped;
 * crashed and backoff after unexpected exits), pre-start waits, the immediate-exit check, group
 * stop, auto-restart and health-triggered restarts. Operations are serialized per process; a
 * stop cancels a start that is still waiting. No HTTP knowledge.
 */
import type { ProcessState } from '../../../sdk/index.js';
import type { ProcessSpec } from '../process-spec.js';
import { HealthMonitor } from './health-monitor.js';
import type { ExitInfo, LaunchedProcess } from './launch.js';
import { RestartScheduler } from './restart-scheduler.js';
import { crashLine, logCrash } from './crash-line.js';
import type { RunnerDeps, StartFailureKind, StartOutcome } from './runner-types.js';
import { runStartSequence } from './start-sequence.js';
import { endRemnants, stopLaunched } from './stop-launched.js';
import { SerialQueue, StateRecord } from './state-record.js';

const SECONDS = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** A supervised process. */
export class ProcessRunner {
  private readonly record: StateRecord;
  private readonly queue = new SerialQueue();
  private readonly restarts = new RestartScheduler();
  private launched: { process: LaunchedProcess; spec: ProcessSpec } | undefined;
  private pendingStart: Promise<StartOutcome> | undefined;
  private startAbort: AbortController | undefined;
  private health: HealthMonitor | undefined;
  /** Set by a stop: an exit of this process is expected, not a crash. */
  private expectedExit: LaunchedProcess | undefined;
  /** False after a manual stop, until the next manual start (docs/decisions.md §14). */
  private autoRestartAllowed = true;
  private hostStopping = false;
  private launches = 0;

  constructor(private readonly deps: RunnerDeps) {
    this.record = new StateRecord(deps.processName, (state) => deps.onChange(state));
  }

  /** A copy of the live state. */
  state(): ProcessState {
    return this.record.get();
  }

  /** The pid while a process is launched. */
  get pid(): number | null {
    return this.launched?.process.pid ?? null;
  }

  /** Start (a no-op when running; joins a start in progress). Resolves running or failed. */
  start(): Promise<StartOutcome> {
    if (this.record.get().status === 'running' && this.launched !== undefined)
      return Promise.resolve({ state: this.state(), failure: null });
    return this.pendingStart ?? this.beginStart(false, 'manual');
  }

  /** Stop: graceful signal to the group, SIGKILL after the stop timeout. Disables auto-restart. */
  stop(): Promise<ProcessState> {
    this.autoRestartAllowed = false;
    this.cancelPending();
    return this.queue.run(() => this.doStop('stop requested'));
  }

  /** Stop (when running), then start. */
  restart(): Promise<StartOutcome> {
    this.cancelPending();
    this.deps.logger.info(`${this.deps.processName}: restarting (restart requested)`);
    return this.beginStart(true, 'manual');
  }

  /** Host shutdown: no more restarts; `cutShort` ends the grace time early (then SIGKILL). */
  shutdown(cutShort: AbortSignal): Promise<ProcessState> {
    this.hostStopping = true;
    this.autoRestartAllowed = false;
    this.cancelPending();
    return this.queue.run(() => this.doStop('stackd is stopping', cutShort));
  }

  private beginStart(stopFirst: boolean, kind: 'manual' | 'auto'): Promise<StartOutcome> {
    const started = this.queue.run(async () => {
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
    this.startAbort?.abort();
    this.restarts.cancel();
  }

  private set(patch: Partial<ProcessState>): void {
    this.record.set(patch);
  }

  private outcome(kind: StartFailureKind | null, message = ''): StartOutcome {
    return { state: this.state(), failure: kind === null ? null : { kind, message } };
  }

  private fail(kind: StartFailureKind, message: string): StartOutcome {
    this.deps.logger.warn(`${this.deps.processName}: ${message}`);
    this.set({ status: 'crashed', pid: null, reason: message });
    return this.outcome(kind, message);
  }

  private async doStart(kind: 'manual' | 'auto'): Promise<StartOutcome> {
    if (this.hostStopping) return this.outcome('cancelled', 'the host is stopping');
    this.restarts.cancel();
    if (this.launched !== undefined && this.record.get().status === 'running')
      return this.outcome(null);
    if (kind === 'manual') {
      this.autoRestartAllowed = true;
      this.restarts.reset();
    } else if (!this.autoRestartAllowed) {
      return this.outcome('cancelled', 'auto-restart was cancelled');
    }
    let spec: ProcessSpec;
    try {
      spec = this.deps.resolveSpec();
    } catch (error) {
      return this.fail('config', `invalid configuration: ${messageOf(error)}`);
    }
    // Leftovers of a crashed predecessor go first, or this would run next to its duplicate.
    await this.deps.launches.ready();
    const abort = new AbortController();
    this.startAbort = abort;
    this.set({ status: 'starting', pid: null, exit_code: null, started_at: null, reason: null });
    const marker = this.deps.launches.newMarker();
    const step = await runStartSequence(spec, {
      marker,
      recordLaunch: (launched) =>
        this.deps.launches.recorded(this.deps.processName, launched.pid, launched.marker),
      processName: this.deps.processName,
      signal: abort.signal,
      startCheckMs: this.deps.startCheckMs,
      output: this.deps.openOutput(spec),
      logger: this.deps.logger,
      onWaiting: (what) => this.set({ reason: `waiting for ${what}` }),
      onLaunched: (launched) => {
        this.launched = { process: launched, spec };
        this.launches += 1;
        this.set({
          pid: launched.pid,
          started_at: launched.startedAt,
          restarts: this.record.get().restarts + (this.launches > 1 ? 1 : 0),
          reason: 'checking that it stays up',
        });
      },
    });
    if (step.kind === 'failed') return this.fail(step.failure, step.message);
    if (step.kind === 'cancelled') {
      // Once launched, the stop that cancelled the start ends the process.
      if (step.launched) return this.outcome('cancelled', 'stopped while starting');
      this.set({ status: 'stopped', pid: null, reason: null });
      return this.outcome('cancelled', 'stopped while waiting to start');
    }
    if (step.kind === 'exited') {
      await this.afterUnexpectedExit(step.process, spec, step.info, step.message);
      return this.outcome('exited', step.message);
    }
    const { process } = step;
    this.startAbort = undefined;
    this.set({ status: 'running', reason: null });
    // Every launch gets its line, so the host log alone tells each process's story.
    this.deps.logger.info(
      `${this.deps.processName}: running (pid ${process.pid}${kind === 'auto' ? ', after an automatic restart' : ''})`,
    );
    void process.exited.then((info) => this.onExit(process, spec, info));
    if (spec.health !== null) {
      this.health = new HealthMonitor(process.pid, spec.health, (reason) =>
        this.onUnhealthy(process, spec, reason),
      );
      this.health.start();
    }
    return this.outcome(null);
  }

  private async doStop(why: string, cutShort?: AbortSignal): Promise<ProcessState> {
    this.health?.stop();
    const launched = this.launched;
    if (launched === undefined) {
      this.set({
        status: 'stopped',
        pid: null,
        reason: this.record.get().status === 'stopped' ? this.record.get().reason : null,
      });
      return this.state();
    }
    const { process, spec } = launched;
    this.expectedExit = process;
    this.set({ status: 'stopping', reason: null });
    const result = await stopLaunched(process, spec, cutShort);
    if (result.survived)
      this.deps.logger.error(`${this.deps.processName}: group ${process.pid} survived SIGKILL`);
    else await this.deps.launches.forget(process.pid);
    this.launched = undefined;
    this.deps.logger.info(
      `${this.deps.processName}: stopped (pid ${process.pid}, ${why}${result.killed ? ', killed with SIGKILL after the stop timeout' : ''})`,
    );
    this.set({
      status: 'stopped',
      pid: null,
      exit_code: result.info.exitCode,
      reason: result.killed
        ? `killed with SIGKILL after the ${SECONDS(spec.stopTimeoutMs)} stop timeout`
        : null,
    });
    return this.state();
  }

  private onExit(process: LaunchedProcess, spec: ProcessSpec, info: ExitInfo): void {
    if (this.expectedExit === process || this.launched?.process !== process) return;
    const how = info.signal === null ? `exit code ${info.exitCode}` : `signal ${info.signal}`;
    void this.queue.run(() =>
      this.afterUnexpectedExit(
        process,
        spec,
        info,
        `${this.deps.processName} exited unexpectedly (${how})`,
      ),
    );
  }

  private onUnhealthy(process: LaunchedProcess, spec: ProcessSpec, reason: string): void {
    void this.queue.run(async () => {
      if (this.launched?.process !== process || this.record.get().status !== 'running') return;
      this.deps.logger.warn(`${this.deps.processName}: unhealthy: ${reason}; restarting`);
      this.expectedExit = process;
      this.set({ status: 'stopping', reason: `unhealthy: ${reason}` });
      const { info } = await stopLaunched(process, spec);
      await this.afterUnexpectedExit(
        process,
        spec,
        info,
        `${this.deps.processName} was unhealthy: ${reason}`,
      );
    });
  }

  /** The process is gone unexpectedly: clean up its group, then restart with backoff or give up. */
  private async afterUnexpectedExit(
    process: LaunchedProcess,
    spec: ProcessSpec,
    info: ExitInfo,
    message: string,
  ): Promise<void> {
    if (this.launched?.process !== process) return;
    this.health?.stop();
    // Decided before the clean-up below, so the state never shows a crash without its outcome.
    const restartable = spec.autoRestart && this.autoRestartAllowed && !this.hostStopping;
    const decision = restartable ? this.restarts.decide(spec, info, process.startedAt) : null;
    const notRestarted = this.hostStopping
      ? 'stackd is stopping'
      : spec.autoRestart
        ? 'it was stopped by request'
        : 'auto_restart is off';
    logCrash(this.deps.logger, crashLine(message, process.pid, decision, notRestarted));
    this.set({
      status: 'crashed',
      pid: null,
      exit_code: info.exitCode,
      reason: decision?.action === 'give-up' ? `${message}; ${decision.reason}` : message,
    });
    // Orphaned grandchildren would hold ports and files: end the rest of the launch too.
    await endRemnants(process, spec);
    await this.deps.launches.forget(process.pid);
    this.launched = undefined;
    if (decision === null || decision.action === 'give-up') return;
    if (!this.autoRestartAllowed || this.hostStopping) return;
    this.set({
      status: 'backoff',
      reason: `${message}; restart ${decision.attempt} in ${SECONDS(decision.delayMs)}`,
    });
    this.restarts.schedule(decision.delayMs, () => void this.beginStart(false, 'auto'));
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
