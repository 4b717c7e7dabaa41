/**
 * What one runner knows of its process between operations, shared by the runner and the parts it
 * hands work to (adoption, the limit reaction, the exit reaction): the live state, the operation
 * queue, the restart timer, the launched process and the flags that say whether an exit is
 * expected and whether a restart may follow.
 */
import type { ProcessState } from '../../../sdk/index.js';
import type { ProcessSpec } from '../process-spec/process-spec.js';
import type { HealthMonitor } from './health-monitor.js';
import type { ExitInfo, LaunchedProcess } from './launch.js';
import { RestartScheduler } from './restart-scheduler.js';
import type {
  AdoptionStamp,
  RunnerDeps,
  RunningLimitWatch,
  StartFailureKind,
  StartOutcome,
} from './runner-types.js';
import { SerialQueue, StateRecord } from './state-record.js';

/** A launched process and the spec it was launched from. */
export interface Launched {
  readonly process: LaunchedProcess;
  readonly spec: ProcessSpec;
}

/** The runner's own moves, which the parts it hands work to call back into. */
export interface RunnerMoves {
  /** Queue a start (after a stop when `stopFirst`). */
  beginStart(stopFirst: boolean, kind: 'manual' | 'auto'): Promise<StartOutcome>;
  /** Follow a running process: its exit, its limits and its health checks. */
  watch(process: LaunchedProcess, spec: ProcessSpec): void;
  /** Stop the launched process (inside the queue). */
  doStop(why: string, cutShort?: AbortSignal): Promise<ProcessState>;
  /** The process is gone unexpectedly: clean up, then restart with backoff or give up. */
  afterUnexpectedExit(
    process: LaunchedProcess,
    spec: ProcessSpec,
    info: ExitInfo,
    message: string,
  ): Promise<void>;
}

/** The mutable state of one runner. */
export class RunnerState {
  readonly record: StateRecord;
  readonly queue = new SerialQueue();
  readonly restarts = new RestartScheduler();
  launched: Launched | undefined;
  startAbort: AbortController | undefined;
  health: HealthMonitor | undefined;
  limitWatch: RunningLimitWatch | null = null;
  /** Set by a stop: an exit of this process is expected, not a crash. */
  expectedExit: LaunchedProcess | undefined;
  /** False after a manual stop, until the next manual start (docs/decisions.md §14). */
  autoRestartAllowed = true;
  hostStopping = false;
  launches = 0;
  /** Set while the launched process is one adopted from a previous host. */
  adoption: AdoptionStamp | undefined;

  constructor(readonly deps: RunnerDeps) {
    this.record = new StateRecord(deps.processName, (state) => deps.onChange(state));
  }

  /** A copy of the live state. */
  state(): ProcessState {
    return this.record.get();
  }

  set(patch: Partial<ProcessState>): void {
    this.record.set(patch);
  }

  /** True while `process` is the launch this runner runs and it is running. */
  runs(process: LaunchedProcess): boolean {
    return this.launched?.process === process && this.record.get().status === 'running';
  }

  outcome(kind: StartFailureKind | null, message = ''): StartOutcome {
    return { state: this.state(), failure: kind === null ? null : { kind, message } };
  }

  fail(kind: StartFailureKind, message: string): StartOutcome {
    this.deps.logger.warn(`${this.deps.processName}: ${message}`);
    this.set({ status: 'crashed', pid: null, reason: message });
    return this.outcome(kind, message);
  }

  endWatches(): void {
    this.health?.stop();
    this.limitWatch?.stop();
    this.limitWatch = null;
  }
}

/** A duration as the state's reason says it (`2.5 s`). */
export const SECONDS = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/** The launch id part of a marker (`<supervisor id>:<launch id>`). */
export function launchIdOf(marker: string): string {
  return marker.slice(marker.lastIndexOf(':') + 1);
}
