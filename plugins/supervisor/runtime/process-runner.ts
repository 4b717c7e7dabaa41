/**
 * One supervised process: its state machine (stopped → starting → running → stopping → stopped;
 * crashed and backoff after unexpected exits), pre-start waits, the immediate-exit check, group
 * stop, auto-restart and health-triggered restarts. Operations are serialized per process; a
 * stop cancels a start that is still waiting. No HTTP knowledge.
 */
import type { ProcessState } from '../../../sdk/index.js';
import type { ProcessSpec } from '../process-spec.js';
import { HealthMonitor } from './health-monitor.js';
import { exitText, type ExitInfo, type LaunchedProcess } from './launch.js';
import { RestartScheduler } from './restart-scheduler.js';
import { crashLine, logCrash } from './crash-line.js';
import type { LimitBreach } from '../limits/limit-watch.js';
import type { LaunchCgroup } from '../cgroups/launch-cgroup.js';
import type {
  RunnerDeps,
  RunningLimitWatch,
  StartFailureKind,
  StartOutcome,
} from './runner-types.js';
import { runStartSequence } from './start-sequence.js';
import { endRemnants, stopLaunched } from './stop-launched.js';
import { SerialQueue, StateRecord } from './state-record.js';
import type { RecordedGroup } from './launch-book.js';
import { adoptedProcess } from '../adoption/adopted-process.js';
import type { PendingRestart } from '../adoption/pending-restarts.js';

/** Which host start adopted a process, and when. */
export interface AdoptionStamp {
  /** Epoch ms of the adoption. */
  readonly adopted_at: number;
  /** Epoch ms at which the adopting host started. */
  readonly adopted_by_host_start: number;
}

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
  private limitWatch: RunningLimitWatch | null = null;
  /** Set by a stop: an exit of this process is expected, not a crash. */
  private expectedExit: LaunchedProcess | undefined;
  /** False after a manual stop, until the next manual start (docs/decisions.md §14). */
  private autoRestartAllowed = true;
  private hostStopping = false;
  private launches = 0;
  /** Set while the launched process is one adopted from a previous host. */
  private adoption: AdoptionStamp | undefined;

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

  /** The launched process's cgroup (null without a launch or where it has none). */
  get cgroup(): LaunchCgroup | null {
    return this.launched?.process.cgroup ?? null;
  }

  /** The adoption of the running process, or undefined when this host launched it. */
  adoptedBy(): AdoptionStamp | undefined {
    return this.launched === undefined ? undefined : this.adoption;
  }

  /**
   * Take over a process a previous host launched (the launch book verified it): running with
   * its original start time and restart counter, exit watch and health checks resumed. When its
   * configuration changed while no host ran, it is restarted, saying why.
   */
  adopt(group: RecordedGroup, stamp: AdoptionStamp): Promise<void> {
    return this.queue.run(async () => {
      const spec = this.deps.resolveSpec();
      const fifoDir = this.deps.launches.fifoDir() ?? '';
      // Its cgroup stays its own: a stop still reaches every descendant that left the group.
      const cgroup =
        (await this.deps.cgroups?.existing?.(this.deps.processName, launchIdOf(group.marker))) ??
        null;
      const process = adoptedProcess(group, fifoDir, this.deps.openOutput(spec), cgroup);
      this.launched = { process, spec };
      this.adoption = stamp;
      this.launches = 1;
      this.set({
        status: 'running',
        pid: process.pid,
        exit_code: null,
        started_at: process.startedAt,
        restarts: group.adoption?.restarts ?? 0,
        reason: null,
      });
      this.deps.logger.info(`${this.deps.processName}: adopted (pid ${process.pid})`);
      this.watch(process, spec);
      if (group.adoption?.fingerprint !== (this.deps.fingerprint?.() ?? '')) {
        this.deps.logger.warn(
          `${this.deps.processName}: its configuration changed while no host ran; restarting it`,
        );
        void this.beginStart(true, 'manual');
      }
      return Promise.resolve();
    });
  }

  /** Resume a restart backoff a previous host left, due when it was due. */
  resumeBackoff(pending: PendingRestart): void {
    this.set({ status: 'backoff', restarts: pending.restarts, reason: pending.reason });
    this.launches = 1;
    void this.deps.launches.pendingRestart(this.deps.processName, pending);
    this.restarts.schedule(
      Math.max(0, pending.due_at - Date.now()),
      () => void this.beginStart(false, 'auto'),
    );
  }

  /**
   * A planned handover: no restarts, no health checks, output left in its FIFOs — the process
   * keeps running (its launch record and pending restart stay) for the next host to adopt.
   */
  handOver(): Promise<void> {
    this.hostStopping = true;
    this.autoRestartAllowed = false;
    this.startAbort?.abort();
    this.restarts.cancel();
    this.health?.stop();
    this.launched?.process.detachOutput();
    return this.queue.run(() => Promise.resolve());
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
      await this.deps.launches.pendingRestart(this.deps.processName, null);
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
      createCgroup: async () =>
        (await this.deps.cgroups?.create(
          this.deps.processName,
          launchIdOf(marker.value),
          spec.limits,
        )) ?? null,
      recordLaunch: (launched) =>
        this.deps.launches.recorded(this.deps.processName, launched.pid, launched.marker, {
          started_at: launched.startedAt,
          restarts: this.record.get().restarts + (this.launches >= 1 ? 1 : 0),
          fingerprint: this.deps.fingerprint?.() ?? '',
          fifos: launched.fifos !== null,
        }),
      fifoDir: this.deps.launches.fifoDir(),
      processName: this.deps.processName,
      signal: abort.signal,
      startCheckMs: this.deps.startCheckMs,
      output: this.deps.openOutput(spec),
      logger: this.deps.logger,
      onWaiting: (what) => this.set({ reason: `waiting for ${what}` }),
      onLaunched: (launched) => {
        this.launched = { process: launched, spec };
        this.adoption = undefined;
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
    this.watch(process, spec);
    return this.outcome(null);
  }

  /** Follow a running process: its exit, and its health checks. */
  private watch(process: LaunchedProcess, spec: ProcessSpec): void {
    void process.exited.then((info) => this.onExit(process, spec, info));
    this.limitWatch =
      this.deps.cgroups?.watch?.(
        this.deps.processName,
        process.pid,
        process.cgroup,
        spec.limits,
        (breach) => this.onLimit(process, spec, breach),
      ) ?? null;
    if (spec.health !== null) {
      this.health = new HealthMonitor(process.pid, spec.health, (reason) =>
        this.onUnhealthy(process, spec, reason),
      );
      this.health.start();
    }
  }

  private endWatches(): void {
    this.health?.stop();
    this.limitWatch?.stop();
    this.limitWatch = null;
  }

  private async doStop(why: string, cutShort?: AbortSignal): Promise<ProcessState> {
    this.endWatches();
    await this.deps.launches.pendingRestart(this.deps.processName, null);
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
    this.deps.cgroups?.ended?.(this.deps.processName);
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
    const watch = this.limitWatch;
    void this.queue.run(async () => {
      // An OOM kill by the kernel is told as such, naming the limit, not as a bare SIGKILL.
      const kernel = (await watch?.kernelReason()) ?? null;
      if (kernel !== null) this.deps.onLimit?.(this.deps.processName, kernelBreach(kernel, spec));
      const message =
        kernel === null
          ? `${this.deps.processName} exited unexpectedly (${exitText(info)})`
          : `${this.deps.processName} was ${kernel}`;
      await this.afterUnexpectedExit(process, spec, info, message);
    });
  }

  /** A limit was hit: tell it, then act by `on_limit`. */
  private onLimit(process: LaunchedProcess, spec: ProcessSpec, breach: LimitBreach): void {
    this.deps.logger.warn(`${this.deps.processName}: ${breach.reason}`);
    this.deps.onLimit?.(this.deps.processName, breach);
    if (breach.action === 'notify') return;
    void this.queue.run(async () => {
      if (this.launched?.process !== process || this.record.get().status !== 'running') return;
      const message = `${this.deps.processName} was ${breach.reason}`;
      if (breach.action === 'stop') {
        this.autoRestartAllowed = false;
        await this.doStop(breach.reason);
        this.set({ reason: message });
        return;
      }
      this.expectedExit = process;
      this.set({ status: 'stopping', reason: message });
      const { info } = await stopLaunched(process, spec);
      await this.afterUnexpectedExit(process, spec, info, message);
    });
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
    this.endWatches();
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
    this.deps.cgroups?.ended?.(this.deps.processName);
    if (decision === null || decision.action === 'give-up') return;
    if (!this.autoRestartAllowed || this.hostStopping) return;
    const reason = `${message}; restart ${decision.attempt} in ${SECONDS(decision.delayMs)}`;
    this.set({ status: 'backoff', reason });
    const { restarts } = this.record.get();
    const due_at = Date.now() + decision.delayMs;
    await this.deps.launches.pendingRestart(this.deps.processName, { due_at, restarts, reason });
    this.restarts.schedule(decision.delayMs, () => void this.beginStart(false, 'auto'));
  }
}

function kernelBreach(reason: string, spec: ProcessSpec): LimitBreach {
  return { reason, action: spec.limits?.onLimit ?? 'restart', limit: 'memory_max' };
}

/** The launch id part of a marker (`<supervisor id>:<launch id>`). */
function launchIdOf(marker: string): string {
  return marker.slice(marker.lastIndexOf(':') + 1);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
