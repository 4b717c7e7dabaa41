/**
 * One supervised process: its state machine (stopped → starting → running → stopping → stopped;
 * crashed and backoff after unexpected exits), pre-start waits, the immediate-exit check, group
 * stop, auto-restart and health-triggered restarts. Operations are serialized per process; a
 * stop cancels a start that is still waiting. No HTTP knowledge.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger, ProcessState, ProcessStatus } from '../../../sdk/index.js';
import type { ProcessSpec } from '../process-spec.js';
import { RestartTracker } from '../restart-policy.js';
import { runWaits } from '../waits/wait-runner.js';
import { HealthMonitor } from './health-monitor.js';
import { launch, type ExitInfo, type LaunchedProcess, type OutputSink } from './launch.js';
import { groupAlive, terminateGroup } from './process-group.js';

/** Why a start did not end with a running process. */
export type StartFailureKind = 'config' | 'wait' | 'launch' | 'exited' | 'cancelled';

/** The result of a start: the state, and the failure when it did not end running. */
export interface StartOutcome {
  readonly state: ProcessState;
  readonly failure: { readonly kind: StartFailureKind; readonly message: string } | null;
}

/** What a runner needs from its owner. */
export interface RunnerDeps {
  readonly processName: string;
  /** The spec from the current config; throws a ProcessSpecError when the block is invalid. */
  resolveSpec(): ProcessSpec;
  /** The sink for this spec's output (null when logging is suppressed). */
  openOutput(spec: ProcessSpec): OutputSink | null;
  /** Every state change. */
  onChange(state: ProcessState): void;
  readonly logger: Logger;
  /** A process that exits within this time after launch failed to start. */
  readonly startCheckMs: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const SECONDS = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** A supervised process. */
export class ProcessRunner {
  private readonly current: Mutable<ProcessState>;
  private chain: Promise<unknown> = Promise.resolve();
  private launched: { process: LaunchedProcess; spec: ProcessSpec } | undefined;
  private pendingStart: Promise<StartOutcome> | undefined;
  private startAbort: AbortController | undefined;
  private backoffTimer: NodeJS.Timeout | undefined;
  private health: HealthMonitor | undefined;
  private tracker: RestartTracker | undefined;
  /** Set by a stop: an exit of this process is expected, not a crash. */
  private expectedExit: LaunchedProcess | undefined;
  /** False after a manual stop, until the next manual start (DECISIONS #14). */
  private autoRestartAllowed = true;
  private hostStopping = false;
  private launches = 0;

  constructor(private readonly deps: RunnerDeps) {
    this.current = {
      process_name: deps.processName,
      status: 'stopped',
      pid: null,
      exit_code: null,
      restarts: 0,
      started_at: null,
      reason: null,
    };
  }

  /** A copy of the live state. */
  state(): ProcessState {
    return { ...this.current };
  }

  /** The pid while a process is launched. */
  get pid(): number | null {
    return this.launched?.process.pid ?? null;
  }

  /** Start (a no-op when running; joins a start in progress). Resolves running or failed. */
  start(): Promise<StartOutcome> {
    if (this.current.status === 'running' && this.launched !== undefined)
      return Promise.resolve({ state: this.state(), failure: null });
    return this.pendingStart ?? this.beginStart(false, 'manual');
  }

  /** Stop: graceful signal to the group, SIGKILL after the stop timeout. Disables auto-restart. */
  stop(): Promise<ProcessState> {
    this.autoRestartAllowed = false;
    this.cancelPending();
    return this.enqueue(() => this.doStop());
  }

  /** Stop (when running), then start. */
  restart(): Promise<StartOutcome> {
    this.cancelPending();
    return this.beginStart(true, 'manual');
  }

  /** Host shutdown: no more restarts; `cutShort` ends the grace time early (then SIGKILL). */
  shutdown(cutShort: AbortSignal): Promise<ProcessState> {
    this.hostStopping = true;
    this.autoRestartAllowed = false;
    this.cancelPending();
    return this.enqueue(() => this.doStop(cutShort));
  }

  private beginStart(stopFirst: boolean, kind: 'manual' | 'auto'): Promise<StartOutcome> {
    const started = this.enqueue(async () => {
      if (stopFirst) await this.doStop();
      return this.doStart(kind);
    });
    this.pendingStart = started;
    void started.finally(() => {
      if (this.pendingStart === started) this.pendingStart = undefined;
    });
    return started;
  }

  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.chain.then(operation, operation);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private cancelPending(): void {
    this.startAbort?.abort();
    if (this.backoffTimer !== undefined) clearTimeout(this.backoffTimer);
    this.backoffTimer = undefined;
  }

  private set(patch: Partial<ProcessState>): void {
    let changed = false;
    for (const [key, value] of Object.entries(patch) as [keyof ProcessState, never][]) {
      if (this.current[key] !== value) {
        this.current[key] = value;
        changed = true;
      }
    }
    if (changed) this.deps.onChange(this.state());
  }

  private outcome(kind: StartFailureKind | null, message = ''): StartOutcome {
    return { state: this.state(), failure: kind === null ? null : { kind, message } };
  }

  private fail(
    kind: StartFailureKind,
    message: string,
    status: ProcessStatus = 'crashed',
  ): StartOutcome {
    this.deps.logger.warn(`${this.deps.processName}: ${message}`);
    this.set({ status, pid: null, reason: message });
    return this.outcome(kind, message);
  }

  private async doStart(kind: 'manual' | 'auto'): Promise<StartOutcome> {
    if (this.hostStopping) return this.outcome('cancelled', 'the host is stopping');
    if (this.backoffTimer !== undefined) clearTimeout(this.backoffTimer);
    this.backoffTimer = undefined;
    if (this.launched !== undefined && this.current.status === 'running') return this.outcome(null);
    if (kind === 'manual') {
      this.autoRestartAllowed = true;
      this.tracker?.reset();
    } else if (!this.autoRestartAllowed) {
      return this.outcome('cancelled', 'auto-restart was cancelled');
    }
    let spec: ProcessSpec;
    try {
      spec = this.deps.resolveSpec();
    } catch (error) {
      return this.fail('config', `invalid configuration: ${messageOf(error)}`);
    }
    this.tracker ??= new RestartTracker(spec.restartPolicy);
    this.tracker.setPolicy(spec.restartPolicy);
    const abort = new AbortController();
    this.startAbort = abort;
    this.set({ status: 'starting', pid: null, exit_code: null, started_at: null, reason: null });
    try {
      await runWaits(spec.waits, {
        signal: abort.signal,
        budgetMs: spec.waitBudgetMs,
        onWaiting: (what) => this.set({ reason: `waiting for ${what}` }),
        onNotReady: (what, detail) =>
          this.deps.logger.debug(`still waiting for ${what}: ${detail}`),
      });
    } catch (error) {
      if (abort.signal.aborted) return this.cancelled();
      return this.fail('wait', messageOf(error));
    }
    let process: LaunchedProcess;
    try {
      process = await launch(spec, this.deps.openOutput(spec));
    } catch (error) {
      return this.fail('launch', messageOf(error));
    }
    this.launched = { process, spec };
    this.launches += 1;
    this.set({
      pid: process.pid,
      started_at: process.startedAt,
      restarts: this.current.restarts + (this.launches > 1 ? 1 : 0),
      reason: 'checking that it stays up',
    });
    const check = await Promise.race([
      process.exited.then(() => 'exited' as const),
      sleep(this.deps.startCheckMs, 'up' as const, { signal: abort.signal }).catch(
        () => 'aborted' as const,
      ),
    ]);
    if (check === 'aborted') return this.outcome('cancelled', 'stopped while starting');
    if (check === 'exited') {
      const info = await process.exited;
      const summary = process.outputSummary();
      const message = `${this.deps.processName} failed to stay running (exit code ${info.exitCode})${summary === null ? '' : `: ${summary}`}`;
      await this.afterUnexpectedExit(process, spec, info, message);
      return this.outcome('exited', message);
    }
    this.startAbort = undefined;
    this.set({ status: 'running', reason: null });
    void process.exited.then((info) => this.onExit(process, spec, info));
    if (spec.health !== null) {
      this.health = new HealthMonitor(process.pid, spec.health, (reason) =>
        this.onUnhealthy(process, spec, reason),
      );
      this.health.start();
    }
    return this.outcome(null);
  }

  private cancelled(): StartOutcome {
    this.set({ status: 'stopped', pid: null, reason: null });
    return this.outcome('cancelled', 'stopped while waiting to start');
  }

  private async doStop(cutShort?: AbortSignal): Promise<ProcessState> {
    this.health?.stop();
    const launched = this.launched;
    if (launched === undefined) {
      this.set({
        status: 'stopped',
        pid: null,
        reason: this.current.status === 'stopped' ? this.current.reason : null,
      });
      return this.state();
    }
    const { process, spec } = launched;
    this.expectedExit = process;
    this.set({ status: 'stopping', reason: null });
    const result = await terminateGroup(
      process.pid,
      spec.stopSignal,
      spec.stopTimeoutMs,
      () => process.hasExited(),
      cutShort,
    );
    if (result.survived)
      this.deps.logger.error(
        `${this.deps.processName}: process group ${process.pid} survived SIGKILL`,
      );
    const info = await Promise.race([process.exited, sleep(5_000, null)]);
    this.launched = undefined;
    this.set({
      status: 'stopped',
      pid: null,
      exit_code: info?.exitCode ?? null,
      reason: result.killed
        ? `killed with SIGKILL after the ${SECONDS(spec.stopTimeoutMs)} stop timeout`
        : null,
    });
    return this.state();
  }

  private onExit(process: LaunchedProcess, spec: ProcessSpec, info: ExitInfo): void {
    if (this.expectedExit === process || this.launched?.process !== process) return;
    const how = info.signal === null ? `exit code ${info.exitCode}` : `signal ${info.signal}`;
    void this.enqueue(() =>
      this.afterUnexpectedExit(
        process,
        spec,
        info,
        `${this.deps.processName} exited unexpectedly (${how})`,
      ),
    );
  }

  private onUnhealthy(process: LaunchedProcess, spec: ProcessSpec, reason: string): void {
    void this.enqueue(async () => {
      if (this.launched?.process !== process || this.current.status !== 'running') return;
      this.deps.logger.warn(`${this.deps.processName}: unhealthy: ${reason}; restarting`);
      this.expectedExit = process;
      this.set({ status: 'stopping', reason: `unhealthy: ${reason}` });
      await terminateGroup(process.pid, spec.stopSignal, spec.stopTimeoutMs, () =>
        process.hasExited(),
      );
      const info = (await Promise.race([process.exited, sleep(5_000, null)])) ?? {
        exitCode: 137,
        signal: 'SIGKILL',
        at: Date.now(),
      };
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
    this.deps.logger.warn(message);
    this.set({ status: 'crashed', pid: null, exit_code: info.exitCode, reason: message });
    // Orphaned grandchildren would hold ports and files: end the rest of the group too.
    if (await groupAlive(process.pid))
      await terminateGroup(process.pid, spec.stopSignal, spec.stopTimeoutMs, () => true);
    this.launched = undefined;
    if (!spec.autoRestart || !this.autoRestartAllowed || this.hostStopping) return;
    const decision = (this.tracker ??= new RestartTracker(spec.restartPolicy)).decide(
      info.at - process.startedAt,
      Date.now(),
    );
    if (decision.action === 'give-up') {
      this.set({ reason: `${message}; ${decision.reason}` });
      return;
    }
    this.set({
      status: 'backoff',
      reason: `${message}; restart ${decision.attempt} in ${SECONDS(decision.delayMs)}`,
    });
    this.backoffTimer = setTimeout(() => {
      this.backoffTimer = undefined;
      void this.beginStart(false, 'auto');
    }, decision.delayMs);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
