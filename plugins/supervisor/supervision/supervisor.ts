/**
 * The supervisor: one runner per process of the configuration, the log writers, boot start in
 * dependency order and shutdown in reverse. Implements the `supervisor.processes` contract.
 * The host's own API entry is reported as always running with the host's pid.
 */
import {
  BadRequestError,
  SecretScrubber,
  type DependencyGraphService,
  type ProcessDescriptor,
  type ProcessState,
} from '../../../sdk/index.js';
import {
  findProcessEntry,
  listProcessEntries,
  requireProcessEntry,
  type ProcessEntry,
} from '../../../sdk/index.js';
import { LogWriters } from './log-writers.js';
import { logFilePath } from '../process-spec/process-spec.js';
import { descriptor, listEntry } from '../views/process-view.js';
import type { ProcessListBody } from '../schemas.js';
import { shutdownInReverse, startInOrder } from '../runtime/boot-and-shutdown.js';
import { startupDependencies } from '../runtime/startup-dependencies.js';
import type { ProcessRunner } from '../runtime/process-runner.js';
import { hostApiState, stoppedState } from '../runtime/state-record.js';
import type { AdoptionStamp, StartOutcome } from '../runtime/runner-types.js';
import { CgroupFiles } from '../runtime/process-trees.js';
import { adoptLeftovers } from '../adoption/adopt-leftovers.js';
import { PROCESS_SELF_STOP } from '../errors.js';
import { perDocument, stateView } from './derived-views.js';
import { createRunner } from './runner-factory.js';
import type { SupervisorOptions } from './supervisor-options.js';
import { scanTrees, type PidTrees } from './tree-scan.js';

export type { SupervisorOptions } from './supervisor-options.js';

/** How long a metrics tick may use process trees when no process started or stopped. */
const TREES_MAX_AGE_MS = 10_000;

/** All supervised processes. */
export class Supervisor {
  private readonly runners = new Map<string, ProcessRunner>();
  private readonly writers: LogWriters;
  /** Dependencies used at boot, reused for the reverse order at shutdown. */
  private bootDependencies: (name: string) => readonly string[] = () => [];
  /** Every process entry of the current document (the API's own entry included). */
  readonly entries = perDocument(() => this.options.readDocument(), listProcessEntries);
  /** Known secrets of the current document, built again only after the configuration changed. */
  private readonly scrubber = perDocument(
    () => this.options.readDocument(),
    (document) => SecretScrubber.of(document),
  );
  /** Counts state changes, so views of the states can be cached between them. */
  private changes = 0;
  /**
   * The process list as GET /process/processes shows it, rebuilt only after a config change or a
   * state change (the same array in between, so its serialization can be reused too).
   */
  // Rebuilt at most once a second besides state changes: uptime and usage move on their own.
  readonly listView = this.stateView((entries): ProcessListBody => {
    const extras = {
      listenPort: this.options.listenPort?.() ?? null,
      now: Date.now(),
    };
    return {
      processes: entries.map((entry) => {
        const state = this.stateOf(entry);
        const usage =
          state.pid === null
            ? undefined
            : this.options.processUsage?.(entry.process_name, state.pid);
        return listEntry(entry, state, { ...extras, usage });
      }),
    };
  }, 1_000);

  constructor(private readonly options: SupervisorOptions) {
    this.writers = new LogWriters(
      { maxBytes: options.config.log_max_bytes, keep: options.config.log_keep },
      options.bus,
      options.logger,
      () => this.scrubber(),
    );
  }

  /**
   * A view of the process states, built from the entries and kept until the configuration or a
   * state changes (or, given `maxAgeMs`, until it is that old: for views that also see what
   * happens outside the supervisor): for answers read far more often than states change.
   */
  stateView<T>(build: (entries: readonly ProcessEntry[]) => T, maxAgeMs = Infinity): () => T {
    return stateView(
      { entries: () => this.entries(), changes: () => this.changes },
      build,
      maxAgeMs,
    );
  }

  /** The entry a request names (exact, then normalized), or undefined. */
  entry(requested: string): ProcessEntry | undefined {
    return findProcessEntry(this.entries(), requested);
  }

  /** The entry a request names; a 404 when unknown. */
  requireEntry(requested: string, field = 'process_name'): ProcessEntry {
    return requireProcessEntry(this.entries(), requested, field);
  }

  list(): ProcessDescriptor[] {
    return this.entries().map(descriptor);
  }

  find(processName: string): ProcessDescriptor | undefined {
    const found = this.entries().find((entry) => entry.process_name === processName);
    return found === undefined ? undefined : descriptor(found);
  }

  /** Bytes each process has written to its log files since the host started. */
  logBytes(): Map<string, number> {
    return this.writers.bytesWritten();
  }

  /** The part of a process's log file its writer redacted itself (GET /logs skips its scan). */
  redactedLogRange(processName: string, file: string): ReturnType<LogWriters['redactedRange']> {
    return this.writers.redactedRange(processName, file);
  }

  states(): ProcessState[] {
    const entries = this.entries();
    const names = new Set(entries.map((entry) => entry.process_name));
    const states = entries.map((entry) => this.stateOf(entry));
    // A process removed from the configuration while it still runs stays visible until stopped.
    for (const [name, runner] of this.runners)
      if (!names.has(name) && runner.state().status !== 'stopped') states.push(runner.state());
    return states;
  }

  state(processName: string): ProcessState | undefined {
    const found = this.entries().find((entry) => entry.process_name === processName);
    if (found !== undefined) return this.stateOf(found);
    return this.runners.get(processName)?.state();
  }

  /** The live state of an entry. */
  stateOf(entry: ProcessEntry): ProcessState {
    if (entry.self) return hostApiState(entry.process_name);
    return this.runners.get(entry.process_name)?.state() ?? stoppedState(entry.process_name);
  }

  /**
   * A process's tree read now ([] without a pid): trees shared with an earlier caller could
   * predate a child just forked. Only this process is looked at.
   */
  async pidTree(processName: string): Promise<number[]> {
    const entries = this.entries().filter((entry) => entry.process_name === processName);
    const trees = await scanTrees(entries, (name) => this.runners.get(name));
    return [...(trees.get(processName) ?? [])];
  }

  /**
   * The tree of every process with a pid, by process name, for metrics. A tree changes when a
   * process starts or stops or the configuration changes (the next call reads the trees again) or
   * when a process forks on its own, seen within {@link TREES_MAX_AGE_MS}. Reading a tree is one
   * small cgroup file per process; only processes without a cgroup need the whole process
   * table. Exited pids in a kept tree cost nothing: usage readers skip pids that are gone.
   */
  readonly pidTrees = this.stateView(
    (entries): Promise<PidTrees> =>
      scanTrees(entries, (name) => this.runners.get(name), this.cgroupFiles),
    TREES_MAX_AGE_MS,
  );
  /** The cgroup files of every tree, kept open between readings of all of them. */
  private readonly cgroupFiles = new CgroupFiles();

  /** Name, config block and instance of every configured process, kept until the config changes. */
  readonly identities = this.stateView((entries) =>
    entries.map(({ process_name, config_key, instance_name }) => ({
      process_name,
      config_key,
      instance_name,
    })),
  );

  logFile(processName: string): string | null {
    const entry = this.entries().find((candidate) => candidate.process_name === processName);
    if (entry === undefined || entry.self) return null;
    return logFilePath(entry, this.options.dataDir);
  }

  async start(processName: string): Promise<ProcessState> {
    return (await this.startEntry(this.requireEntry(processName))).state;
  }

  async stop(processName: string): Promise<ProcessState> {
    return this.stopEntry(this.requireEntry(processName));
  }

  async restart(processName: string): Promise<ProcessState> {
    return (await this.restartEntry(this.requireEntry(processName))).state;
  }

  /** Start an entry; the outcome says why when it did not end running. */
  startEntry(entry: ProcessEntry): Promise<StartOutcome> {
    if (entry.self) return Promise.resolve({ state: this.stateOf(entry), failure: null });
    return this.runner(entry.process_name).start();
  }

  /** Stop an entry; the API's own entry cannot be stopped through itself (400). */
  async stopEntry(entry: ProcessEntry): Promise<ProcessState> {
    if (entry.self)
      throw new BadRequestError(
        PROCESS_SELF_STOP,
        `'${entry.process_name}' is this API itself; stop the host instead (SIGTERM)`,
        { field: 'process_name' },
      );
    const runner = this.runners.get(entry.process_name);
    return runner === undefined ? Promise.resolve(this.stateOf(entry)) : runner.stop();
  }

  /** Stop a process by name, also one whose block is gone from the configuration. */
  async stopByName(processName: string): Promise<ProcessState | undefined> {
    return this.runners.get(processName)?.stop();
  }

  restartEntry(entry: ProcessEntry): Promise<StartOutcome> {
    if (entry.self) return Promise.resolve({ state: this.stateOf(entry), failure: null });
    return this.runner(entry.process_name).restart();
  }

  /**
   * Start every enabled process: with the graph, each once its hard dependencies settled;
   * without it, all in parallel. Resolves when every start settled, with the names that failed.
   */
  async startEnabled(
    graph: DependencyGraphService | undefined,
    signal: AbortSignal,
    onPlan: (names: readonly string[]) => void = () => undefined,
  ): Promise<{ started: string[]; failed: Map<string, string> }> {
    const names = this.entries()
      .filter((entry) => !entry.self && entry.block.enabled === true)
      .map((entry) => entry.process_name);
    // Whatever a previous host left running is adopted before anything starts.
    const resumed =
      this.options.adopter === undefined
        ? new Set<string>()
        : await adoptLeftovers(
            names,
            this.options.adopter,
            (name) => this.runner(name),
            this.options.logger,
          );
    onPlan(names);
    if (names.length === 0) return { started: [], failed: new Map<string, string>() };
    const { logger } = this.options;
    this.bootDependencies = startupDependencies(graph, names, logger);
    logger.info(`starting ${names.length} enabled process(es)`);
    return startInOrder(names, {
      dependencies: this.bootDependencies,
      skip: resumed,
      start: (name) => this.runner(name).start(),
      logger,
      signal,
    });
  }

  /** Stop every process (dependents first, the rest in parallel); SIGKILL what outlives the budget. */
  async stopAll(budgetMs: number, hostDeadline?: AbortSignal): Promise<void> {
    try {
      await shutdownInReverse(this.runners, this.bootDependencies, budgetMs, hostDeadline);
    } finally {
      this.cgroupFiles.close();
      await this.writers.closeAll();
    }
  }

  /** A planned handover: every process keeps running for the next host; output is flushed. */
  async handOver(): Promise<void> {
    await Promise.all([...this.runners.values()].map((runner) => runner.handOver()));
    this.cgroupFiles.close();
    await this.writers.closeAll();
  }

  /** How a running process was adopted from a previous host, or undefined. */
  adoptedBy(processName: string): AdoptionStamp | undefined {
    return this.runners.get(processName)?.adoptedBy();
  }

  private runner(processName: string): ProcessRunner {
    let runner = this.runners.get(processName);
    if (runner === undefined) {
      runner = createRunner(processName, {
        options: this.options,
        writers: this.writers,
        entryOf: (name) => this.entries().find((entry) => entry.process_name === name),
        onChange: (state) => {
          this.changes += 1;
          this.options.onChange(state);
        },
      });
      this.runners.set(processName, runner);
    }
    return runner;
  }
}
