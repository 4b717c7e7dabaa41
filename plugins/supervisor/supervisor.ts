/**
 * The supervisor: one runner per process of the configuration, the log writers, boot start in
 * dependency order and shutdown in reverse. Implements the `supervisor.processes` contract.
 * The host's own API entry is reported as always running with the host's pid.
 */
import {
  NotFoundError,
  type DependencyGraphService,
  type JsonRecord,
  type Logger,
  type ProcessDescriptor,
  type ProcessState,
  type ProcessSupervisor,
} from '../../sdk/index.js';
import { ProcessSpecError } from './command-line.js';
import { findProcessEntry, listProcessEntries, type ProcessEntry } from './config-model.js';
import type { SupervisorConfig } from './config.js';
import type { LogLineBus } from './logs/log-line-bus.js';
import { ProcessLogWriter } from './logs/log-writer.js';
import { buildProcessSpec, logFilePath, type ProcessSpec } from './process-spec.js';
import type { OutputSink } from './runtime/launch.js';
import { dependentsOf, runOrdered } from './runtime/ordered-run.js';
import { ProcessRunner } from './runtime/process-runner.js';
import type { StartOutcome } from './runtime/runner-types.js';
import { liveTree, readProcTable } from './runtime/proc-table.js';

/** What the supervisor is built from. */
export interface SupervisorOptions {
  readonly dataDir: string;
  readonly config: SupervisorConfig;
  /** The current configuration document. */
  readonly readDocument: () => JsonRecord;
  readonly logger: Logger;
  readonly bus: LogLineBus;
  /** Every state change of every process. */
  readonly onChange: (state: ProcessState) => void;
  /** Environment merged under every block's env (default: the host's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

function descriptor(entry: ProcessEntry): ProcessDescriptor {
  return {
    process_name: entry.process_name,
    config_key: entry.config_key,
    instance_name: entry.instance_name,
    enabled: entry.block.enabled === true,
    block: structuredClone(entry.block),
  };
}

/** All supervised processes. */
export class Supervisor implements ProcessSupervisor {
  private readonly runners = new Map<string, ProcessRunner>();
  private readonly writers = new Map<string, ProcessLogWriter>();
  /** Dependencies used at boot, reused for the reverse order at shutdown. */
  private bootDependencies: (name: string) => readonly string[] = () => [];

  constructor(private readonly options: SupervisorOptions) {}

  /** Every process entry of the current document (the API's own entry included). */
  entries(): ProcessEntry[] {
    return listProcessEntries(this.options.readDocument());
  }

  /** The entry a request names (exact, then normalized), or undefined. */
  entry(requested: string): ProcessEntry | undefined {
    return findProcessEntry(this.entries(), requested);
  }

  /** The entry a request names; a 404 when unknown. */
  requireEntry(requested: string, field = 'process_name'): ProcessEntry {
    const found = this.entry(requested);
    if (found === undefined)
      throw new NotFoundError('PROCESS_NOT_FOUND', `Process '${requested}' not found`, { field });
    return found;
  }

  list(): ProcessDescriptor[] {
    return this.entries().map(descriptor);
  }

  find(processName: string): ProcessDescriptor | undefined {
    const found = this.entries().find((entry) => entry.process_name === processName);
    return found === undefined ? undefined : descriptor(found);
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
    if (entry.self) {
      return {
        process_name: entry.process_name,
        status: 'running',
        pid: process.pid,
        exit_code: null,
        restarts: 0,
        started_at: Math.round(Date.now() - process.uptime() * 1000),
        reason: null,
      };
    }
    return (
      this.runners.get(entry.process_name)?.state() ?? {
        process_name: entry.process_name,
        status: 'stopped',
        pid: null,
        exit_code: null,
        restarts: 0,
        started_at: null,
        reason: null,
      }
    );
  }

  async pidTree(processName: string): Promise<number[]> {
    const entry = this.entries().find((candidate) => candidate.process_name === processName);
    if (entry?.self === true) return [process.pid];
    const pid = this.runners.get(processName)?.pid ?? null;
    if (pid === null) return [];
    const table = await readProcTable();
    return table === null ? [pid] : liveTree(table, pid);
  }

  logFile(processName: string): string | null {
    const entry = this.entries().find((candidate) => candidate.process_name === processName);
    if (entry === undefined || entry.self) return null;
    return logFilePath(entry, this.options.dataDir);
  }

  start(processName: string): Promise<ProcessState> {
    return this.startEntry(this.requireEntry(processName)).then((outcome) => outcome.state);
  }

  stop(processName: string): Promise<ProcessState> {
    return this.stopEntry(this.requireEntry(processName));
  }

  restart(processName: string): Promise<ProcessState> {
    return this.restartEntry(this.requireEntry(processName)).then((outcome) => outcome.state);
  }

  /** Start an entry; the outcome says why when it did not end running. */
  startEntry(entry: ProcessEntry): Promise<StartOutcome> {
    if (entry.self) return Promise.resolve({ state: this.stateOf(entry), failure: null });
    return this.runner(entry.process_name).start();
  }

  /** Stop an entry (the caller refuses the API's own entry). */
  stopEntry(entry: ProcessEntry): Promise<ProcessState> {
    const runner = this.runners.get(entry.process_name);
    return runner === undefined ? Promise.resolve(this.stateOf(entry)) : runner.stop();
  }

  restartEntry(entry: ProcessEntry): Promise<StartOutcome> {
    if (entry.self) return Promise.resolve({ state: this.stateOf(entry), failure: null });
    return this.runner(entry.process_name).restart();
  }

  /**
   * Start every enabled process: with the graph, each once its hard dependencies settled;
   * without it, all in parallel. Resolves when every start settled.
   */
  async startEnabled(
    graph: DependencyGraphService | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const names = this.entries()
      .filter((entry) => !entry.self && entry.block.enabled === true)
      .map((entry) => entry.process_name);
    if (names.length === 0) return;
    const { logger } = this.options;
    if (graph !== undefined) {
      const plan = graph.planStartup(names);
      const inCycle = new Map<string, Set<string>>();
      for (const cycle of plan.cycles) {
        logger.warn(`dependency cycle: ${cycle.join(' → ')}; its members start without ordering`);
        for (const member of cycle) inCycle.set(member, new Set(cycle));
      }
      this.bootDependencies = (name) =>
        (plan.dependencies[name] ?? []).filter((other) => inCycle.get(name)?.has(other) !== true);
    }
    logger.info(`starting ${names.length} enabled process(es)`);
    await runOrdered(names, {
      before: this.bootDependencies,
      action: async (name) => (await this.runner(name).start()).failure === null,
      onFailedPrerequisite: (name, failed) =>
        logger.warn(`${name} starts although its dependencies did not: ${failed.join(', ')}`),
      onCycle: (path) => logger.warn(`dependency cycle ${path.join(' → ')}: edge ignored`),
      signal,
    });
  }

  /** Stop every process (dependents first, the rest in parallel); SIGKILL what outlives the budget. */
  async stopAll(budgetMs: number): Promise<void> {
    const cutShort = new AbortController();
    const timer = setTimeout(() => cutShort.abort(), budgetMs);
    const names = [...this.runners.keys()];
    try {
      await runOrdered(names, {
        before: dependentsOf(names, this.bootDependencies),
        action: async (name) => {
          await this.runners.get(name)?.shutdown(cutShort.signal);
          return true;
        },
      });
    } finally {
      clearTimeout(timer);
      await Promise.all([...this.writers.values()].map((writer) => writer.close()));
      this.writers.clear();
    }
  }

  private runner(processName: string): ProcessRunner {
    let runner = this.runners.get(processName);
    if (runner === undefined) {
      runner = new ProcessRunner({
        processName,
        resolveSpec: () => this.resolveSpec(processName),
        openOutput: (spec) => this.output(spec),
        onChange: this.options.onChange,
        logger: this.options.logger.child(processName),
        startCheckMs: this.options.config.start_check_ms,
      });
      this.runners.set(processName, runner);
    }
    return runner;
  }

  private resolveSpec(processName: string): ProcessSpec {
    const entry = this.entries().find((candidate) => candidate.process_name === processName);
    if (entry === undefined) throw new ProcessSpecError('it is no longer in the configuration');
    return buildProcessSpec(entry, {
      dataDir: this.options.dataDir,
      hostEnv: this.options.env ?? process.env,
      defaults: this.options.config,
      nodePath: process.execPath,
    });
  }

  private output(spec: ProcessSpec): OutputSink | null {
    if (spec.logFile === null) return null;
    const key = `${spec.processName}\u0000${spec.logFile}`;
    let writer = this.writers.get(key);
    if (writer === undefined) {
      writer = new ProcessLogWriter({
        file: spec.logFile,
        maxBytes: this.options.config.log_max_bytes,
        keep: this.options.config.log_keep,
        processName: spec.processName,
        bus: this.options.bus,
        onError: (error) =>
          this.options.logger.warn(
            `log file ${spec.logFile ?? ''} of ${spec.processName}: ${String(error)}`,
          ),
      });
      this.writers.set(key, writer);
    }
    return writer;
  }
}
