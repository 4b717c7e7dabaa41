/** A process's runner, wired to the supervisor's log writers, launch records and settings. */
import type { ProcessEntry, ProcessState } from '../../../sdk/index.js';
import { ProcessSpecError } from '../process-spec/command-line.js';
import { buildProcessSpec, type ProcessSpec } from '../process-spec/process-spec.js';
import { ProcessRunner } from '../runtime/process-runner.js';
import { blockFingerprint } from '../adoption/adopt-leftovers.js';
import type { LogWriters } from './log-writers.js';
import type { SupervisorOptions } from './supervisor-options.js';

/** What a runner is built with besides the supervisor's options. */
export interface RunnerContext {
  readonly options: SupervisorOptions;
  readonly writers: LogWriters;
  /** The entry of this name in the current configuration, if it is still there. */
  readonly entryOf: (processName: string) => ProcessEntry | undefined;
  /** Every state change of the runner's process. */
  readonly onChange: (state: ProcessState) => void;
}

/** A new runner for `processName`; its spec is resolved from the configuration at each launch. */
export function createRunner(processName: string, context: RunnerContext): ProcessRunner {
  const { options } = context;
  return new ProcessRunner({
    processName,
    resolveSpec: () => resolveSpec(processName, context),
    openOutput: (spec) => context.writers.open(spec),
    onChange: context.onChange,
    logger: options.logger.child(processName),
    startCheckMs: options.config.start_check_ms,
    launches: options.launches,
    fingerprint: () => {
      const entry = context.entryOf(processName);
      return entry === undefined ? '' : blockFingerprint(entry.block);
    },
    ...(options.cgroups === undefined ? {} : { cgroups: options.cgroups }),
    ...(options.onLimit === undefined ? {} : { onLimit: options.onLimit }),
  });
}

function resolveSpec(processName: string, { options, entryOf }: RunnerContext): ProcessSpec {
  const entry = entryOf(processName);
  if (entry === undefined) throw new ProcessSpecError('it is no longer in the configuration');
  return buildProcessSpec(entry, {
    dataDir: options.dataDir,
    hostEnv: options.env ?? process.env,
    defaults: options.config,
    nodePath: process.execPath,
  });
}
