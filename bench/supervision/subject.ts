/** A supervisor under benchmark, whatever it is: stackd, pm2, or the bare spawn loop. */

/** The outcome of one timed operation on all processes. */
export interface Step {
  /** Wall time until all processes were running (ms). */
  readonly ms: number;
  /** PIDs of the supervised processes afterwards. */
  readonly pids: readonly number[];
}

/** One supervisor with its processes configured but not started. */
export interface Subject {
  readonly label: string;
  /** The process whose memory and CPU are measured. */
  readonly supervisorPid: number;
  startAll(): Promise<Step>;
  restartAll(): Promise<Step>;
  /** Stop the processes and the supervisor (by PID). */
  close(): Promise<void>;
}
