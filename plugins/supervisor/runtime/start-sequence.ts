/**
 * The steps of one start once its spec is known: the pre-start waits, the launch, and the
 * immediate-exit check (a process that exits within `startCheckMs` failed to start: "<name>
 * failed to stay running (exit code N): <its most telling output line>").
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../../sdk/index.js';
import type { LaunchCgroup } from '../cgroups/launch-cgroup.js';
import { removeLaunchCgroup } from '../cgroups/launch-cgroup.js';
import type { ProcessSpec } from '../process-spec/process-spec.js';
import { runWaits } from '../waits/wait-runner.js';
import {
  exitText,
  launch,
  type ExitInfo,
  type LaunchMarker,
  type LaunchedProcess,
  type OutputSink,
} from './launch.js';

/** Where a start sequence ended. */
export type StartStep =
  | { readonly kind: 'up'; readonly process: LaunchedProcess }
  | {
      readonly kind: 'exited';
      readonly process: LaunchedProcess;
      readonly info: ExitInfo;
      readonly message: string;
    }
  | { readonly kind: 'failed'; readonly failure: 'wait' | 'launch'; readonly message: string }
  /** Cancelled by a stop; `launched` says whether a process is already running. */
  | { readonly kind: 'cancelled'; readonly launched: boolean };

/** What the sequence reports to its runner. */
export interface StartSequenceHooks {
  readonly processName: string;
  /** Aborted by a stop or the host's shutdown. */
  readonly signal: AbortSignal;
  readonly startCheckMs: number;
  readonly output: OutputSink | null;
  readonly logger: Logger;
  /** What is awaited now. */
  onWaiting(what: string): void;
  /** The marker for the launch's environment. */
  readonly marker: LaunchMarker;
  /** Where the launch's output FIFOs go (null: ordinary pipes). */
  readonly fifoDir?: string | null;
  /** The launch's cgroup, created just before the launch (null: none on this machine). */
  createCgroup?(): Promise<LaunchCgroup | null>;
  /** Record the launch durably; awaited before it is reported. */
  recordLaunch(process: LaunchedProcess): Promise<void>;
  /** The process was launched (the immediate-exit check begins). */
  onLaunched(process: LaunchedProcess): void;
}

/**
 * The start check's outcomes as module functions, not arrows inside the sequence: a reaction on
 * `process.exited` lives as long as the process, and an arrow there would keep the sequence's
 * whole scope (its hooks, the runner's start closures, the abort controller) alive with it.
 */
const exitedFirst = (): 'exited' => 'exited';
const abortedFirst = (): 'aborted' => 'aborted';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Run the waits, launch, and check that the process stays up. */
export async function runStartSequence(
  spec: ProcessSpec,
  hooks: StartSequenceHooks,
): Promise<StartStep> {
  const { signal } = hooks;
  try {
    await runWaits(spec.waits, {
      signal,
      budgetMs: spec.waitBudgetMs,
      onWaiting: (what) => hooks.onWaiting(what),
      onNotReady: (what, detail) => hooks.logger.debug(`still waiting for ${what}: ${detail}`),
    });
  } catch (error) {
    if (signal.aborted) return { kind: 'cancelled', launched: false };
    return { kind: 'failed', failure: 'wait', message: messageOf(error) };
  }
  if (signal.aborted) return { kind: 'cancelled', launched: false };
  let process: LaunchedProcess;
  const cgroup = (await hooks.createCgroup?.()) ?? null;
  try {
    process = await launch(spec, hooks.output, hooks.marker, hooks.fifoDir ?? null, cgroup);
  } catch (error) {
    if (cgroup !== null) await removeLaunchCgroup(cgroup);
    return { kind: 'failed', failure: 'launch', message: messageOf(error) };
  }
  await hooks.recordLaunch(process);
  hooks.onLaunched(process);
  const check = await Promise.race([
    process.exited.then(exitedFirst),
    sleep(hooks.startCheckMs, 'up' as const, { signal }).catch(abortedFirst),
  ]);
  if (check === 'up') return { kind: 'up', process };
  if (check === 'aborted') return { kind: 'cancelled', launched: true };
  const info = await process.exited;
  const summary = process.outputSummary();
  const message = `${hooks.processName} failed to stay running (${exitText(info)})${summary === null ? '' : `: ${summary}`}`;
  return { kind: 'exited', process, info, message };
}
