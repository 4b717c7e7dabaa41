/** The live state of one process, telling its listener about every actual change. */
import type { ProcessState } from '../../../sdk/index.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The state of a process that has never run. */
export function stoppedState(processName: string): ProcessState {
  return {
    process_name: processName,
    status: 'stopped',
    pid: null,
    exit_code: null,
    restarts: 0,
    started_at: null,
    reason: null,
  };
}

/** The state of the host's own API entry: always running, as the host's own pid. */
export function hostApiState(processName: string): ProcessState {
  return {
    process_name: processName,
    status: 'running',
    pid: process.pid,
    exit_code: null,
    restarts: 0,
    started_at: Math.round(Date.now() - process.uptime() * 1000),
    reason: null,
  };
}

/** A process's state; `set` notifies only when a field really changed. */
export class StateRecord {
  private readonly current: Mutable<ProcessState>;

  constructor(
    processName: string,
    private readonly onChange: (state: ProcessState) => void,
  ) {
    this.current = stoppedState(processName);
  }

  /** A copy of the state. */
  get(): ProcessState {
    return { ...this.current };
  }

  set(patch: Partial<ProcessState>): void {
    let changed = false;
    for (const [key, value] of Object.entries(patch) as [keyof ProcessState, never][]) {
      if (this.current[key] !== value) {
        this.current[key] = value;
        changed = true;
      }
    }
    if (changed) this.onChange(this.get());
  }
}

/** Runs async operations one after the other (a failed one does not block the next). */
export class SerialQueue {
  private chain: Promise<unknown> = Promise.resolve();

  run<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.chain.then(operation, operation);
    this.chain = next.catch(() => undefined);
    return next;
  }
}
