/** `supervisor.processes`: what the supervisor offers other plugins (graph, metrics, ai, …). */
import type { JsonRecord } from '../config.js';
import { defineEvent } from '../events.js';
import { createServiceRef } from '../services.js';

/** Process status values (DECISIONS #11). */
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
}

/** The service ref. */
export const processSupervisorRef = createServiceRef<ProcessSupervisor>({
  id: 'supervisor.processes',
  owner: 'supervisor',
});

/** Emitted on every status change. */
export const processStateChanged = defineEvent<ProcessState>('supervisor.process-state-changed');
