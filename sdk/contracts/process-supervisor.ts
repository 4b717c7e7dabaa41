/** `supervisor.processes`: what the supervisor offers other plugins (graph, metrics, ai, …). */
import type { JsonRecord } from '../config.js';
import { defineEvent } from '../events.js';
import { createServiceRef } from '../services.js';

/** Process status values (docs/decisions.md §11). */
export type ProcessStatus = 'running' | 'stopped' | 'starting' | 'stopping' | 'crashed' | 'backoff';

/** One process of the configuration. */
export interface ProcessDescriptor {
  readonly process_name: string;
  /** Top-level key of its service block. */
  readonly config_key: string;
  /** Instance name for `instances` blocks, else null. */
  readonly instance_name: string | null;
  readonly enabled: boolean;
  /** A deep copy of the process block. */
  readonly block: JsonRecord;
}

/** The live state of one process. */
export interface ProcessState {
  readonly process_name: string;
  readonly status: ProcessStatus;
  readonly pid: number | null;
  readonly exit_code: number | null;
  readonly restarts: number;
  /** Epoch milliseconds of the last start, or null. */
  readonly started_at: number | null;
  /** Why it is in this state (a wait, a failure), when there is a reason. */
  readonly reason: string | null;
}

/** Options of {@link ProcessSupervisor.launch}. */
export interface LaunchOptions {
  /** Restart when it runs (default: start, a no-op when running). */
  readonly restart?: boolean;
  /** How long to wait for running; the supervisor's `start_response_timeout_sec` by default. */
  readonly waitMs?: number;
  /** Run the start preparers first (default true). */
  readonly prepare?: boolean;
}

/** What a launch came to: `done` is false when the process still starts after the wait. */
export interface LaunchResult {
  readonly done: boolean;
  readonly state: ProcessState;
}

/**
 * Runs before every launch of a process through the control routes or {@link
 * ProcessSupervisor.launch}: prepares what the service needs (its own config files, block
 * fields). Changes it makes to the configuration document are read by the launch that follows.
 * A throw aborts the launch and becomes the answer (typed sdk errors keep their status).
 */
export type StartPreparer = (process: ProcessDescriptor) => Promise<void> | void;

/** The supervisor's service. */
export interface ProcessSupervisor {
  /** Every process of the configuration, in file order. */
  list(): ProcessDescriptor[];
  /** A process by exact `process_name`, or undefined. */
  find(processName: string): ProcessDescriptor | undefined;
  /** Live state of every process. */
  states(): ProcessState[];
  /** Live state of one process, or undefined when unknown. */
  state(processName: string): ProcessState | undefined;
  /** Pids of the process and all its descendants (empty when not running). */
  pidTree(processName: string): Promise<number[]>;
  /** Absolute path of the process's log file, or null. */
  logFile(processName: string): string | null;
  start(processName: string): Promise<ProcessState>;
  stop(processName: string): Promise<ProcessState>;
  restart(processName: string): Promise<ProcessState>;
  /**
   * Start (or restart) as the control routes do: preparers first, then wait for running up to
   * `waitMs`. A process that exits during its start check rejects with 409
   * `PROCESS_START_FAILED` naming the exit reason; an invalid block with 400; unknown with 404.
   */
  launch(processName: string, options?: LaunchOptions): Promise<LaunchResult>;
  /** Add a before-start extension (setup hooks); returns a function removing it. */
  addStartPreparer(preparer: StartPreparer): () => void;
}

/** The service ref. */
export const processSupervisorRef = createServiceRef<ProcessSupervisor>({
  id: 'supervisor.processes',
  owner: 'supervisor',
});

/** Emitted on every status change. */
export const processStateChanged = defineEvent<ProcessState>('supervisor.process-state-changed');
