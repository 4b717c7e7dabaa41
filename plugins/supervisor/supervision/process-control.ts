/**
 * Start/stop/restart as the routes need them: bounded waiting (the answer comes once the process
 * runs, failed, or the response timeout passed while it still starts) and failures turned into
 * typed errors. Shared by the current routes and their earlier-generation aliases.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { BadRequestError, ConflictError, type ProcessState } from '../../../sdk/index.js';
import type { LaunchOptions, LaunchResult, ProcessEntry } from '../../../sdk/index.js';
import type { StartOutcome } from '../runtime/runner-types.js';
import type { StartPreparers } from './start-preparers.js';
import type { Supervisor } from './supervisor.js';
import {
  PROCESS_CONFIG_INVALID,
  PROCESS_START_CANCELLED,
  PROCESS_START_FAILED,
} from '../errors.js';

/** What a start or restart came to. */
export type BoundedStart =
  | { readonly done: true; readonly state: ProcessState }
  | { readonly done: false; readonly state: ProcessState };

/** The control operations of the routes. */
export class ProcessControl {
  constructor(
    private readonly supervisor: Supervisor,
    private readonly responseTimeoutMs: number,
    /** Run before every start and restart (setup hooks of other plugins). */
    private readonly preparers: StartPreparers,
  ) {}

  /** The contract's launch: by name, with the preparers unless told otherwise. */
  launch(processName: string, options: LaunchOptions = {}): Promise<LaunchResult> {
    return this.start(this.supervisor.requireEntry(processName), options.restart ?? false, {
      prepare: options.prepare ?? true,
      waitMs: options.waitMs ?? this.responseTimeoutMs,
    });
  }

  /** Start (or restart) and wait for running, bounded; a failure throws a typed error. */
  async start(
    requested: ProcessEntry,
    restart: boolean,
    options: { prepare?: boolean; waitMs?: number } = {},
  ): Promise<BoundedStart> {
    const entry = options.prepare === false ? requested : await this.prepare(requested);
    const pending = restart
      ? this.supervisor.restartEntry(entry)
      : this.supervisor.startEntry(entry);
    const timer = new AbortController();
    const outcome = await Promise.race([
      pending,
      sleep(options.waitMs ?? this.responseTimeoutMs, undefined, { signal: timer.signal }).catch(
        () => undefined,
      ),
    ]);
    timer.abort();
    if (outcome === undefined) return { done: false, state: this.supervisor.stateOf(entry) };
    throwIfFailed(outcome);
    return { done: true, state: outcome.state };
  }

  /** Run the preparers, then read the entry again: they may have changed its block. */
  private async prepare(entry: ProcessEntry): Promise<ProcessEntry> {
    const process = this.supervisor.find(entry.process_name);
    if (entry.self || this.preparers.size === 0 || process === undefined) return entry;
    await this.preparers.run(process);
    const samePath = (candidate: ProcessEntry): boolean =>
      candidate.path.length === entry.path.length &&
      candidate.path.every((key, index) => key === entry.path[index]);
    return this.supervisor.entries().find(samePath) ?? entry;
  }

  /** Stop; the API's own entry is refused (400 PROCESS_SELF_STOP). */
  async stop(entry: ProcessEntry): Promise<{ state: ProcessState; wasRunning: boolean }> {
    const before = this.supervisor.stateOf(entry).status;
    const state = await this.supervisor.stopEntry(entry);
    return { state, wasRunning: before !== 'stopped' };
  }
}

/**
 * A failed start as an error: 400 for an invalid block; 409 for everything else, because a
 * process that exits during its start check, a command that cannot be spawned or a dependency
 * that never became ready are outcomes of the stack, not faults of the host (docs/decisions.md §28).
 */
export function throwIfFailed(outcome: StartOutcome): void {
  const { failure } = outcome;
  if (failure === null) return;
  switch (failure.kind) {
    case 'config':
      throw new BadRequestError(PROCESS_CONFIG_INVALID, failure.message, {
        field: 'process_name',
      });
    case 'cancelled':
      throw new ConflictError(PROCESS_START_CANCELLED, `start cancelled: ${failure.message}`);
    default:
      throw new ConflictError(PROCESS_START_FAILED, failure.message);
  }
}
