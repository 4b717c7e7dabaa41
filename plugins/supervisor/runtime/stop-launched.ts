/** End a launched process: its stop signal to the group, SIGKILL after its stop timeout. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProcessSpec } from '../process-spec.js';
import type { ExitInfo, LaunchedProcess } from './launch.js';
import { terminateGroup } from './process-group.js';

/** How the stop went. */
export interface StopResult {
  /** The exit as observed (a SIGKILL death when the leader's exit was never seen). */
  readonly info: ExitInfo;
  /** SIGKILL was needed. */
  readonly killed: boolean;
  /** Something in the group survived even SIGKILL. */
  readonly survived: boolean;
}

const EXIT_WAIT_MS = 5_000;

/** Stop `process` as `spec` says; `cutShort` ends the grace time early (host stop budget). */
export async function stopLaunched(
  process: LaunchedProcess,
  spec: ProcessSpec,
  cutShort?: AbortSignal,
): Promise<StopResult> {
  const { killed, survived } = await terminateGroup(
    process.pid,
    spec.stopSignal,
    spec.stopTimeoutMs,
    () => process.hasExited(),
    cutShort,
  );
  const seen = await Promise.race([process.exited, sleep(EXIT_WAIT_MS, null)]);
  const info = seen ?? { exitCode: 137, signal: 'SIGKILL' as const, at: Date.now() };
  return { info, killed, survived };
}
