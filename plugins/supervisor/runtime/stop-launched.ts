/**
 * End a launched process and everything it started: the stop signal to its group and to every
 * descendant that left the group (found by its launch marker), SIGKILL to whatever outlives the
 * stop timeout (or the host's stop budget).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { killLaunchCgroup, launchMembers, removeLaunchCgroup } from '../cgroups/launch-cgroup.js';
import type { ProcessSpec } from '../process-spec/process-spec.js';
import type { ExitInfo, LaunchedProcess } from './launch.js';
import { markedProcesses } from './launch-marker.js';
import { groupAlive, terminateGroup, terminateProcesses } from './process-group.js';
import { readProcess } from './proc-table.js';

/** How the stop went. */
export interface StopResult {
  /** The exit as observed (a SIGKILL death when the leader's exit was never seen). */
  readonly info: ExitInfo;
  /** SIGKILL was needed. */
  readonly killed: boolean;
  /** Something survived even SIGKILL. */
  readonly survived: boolean;
}

const EXIT_WAIT_MS = 5_000;

/**
 * Processes of this launch outside its group (they called setsid, or were moved): marked ones,
 * and the members of its cgroup, which also holds those that cleared their environment.
 */
async function escapedFrom(process: LaunchedProcess): Promise<number[]> {
  const [marked, contained] = await Promise.all([
    markedProcesses(process.marker),
    process.cgroup === null ? [] : launchMembers(process.cgroup),
  ]);
  // A pid gone by now needs no signal; the rest are read one by one, not the whole table.
  return [...new Set([...marked, ...contained])].filter((pid) => {
    const row = readProcess(pid);
    return row !== undefined && row.pgrp !== process.pid;
  });
}

/** Whatever is still in the launch's cgroup is killed, then the cgroup is removed. */
async function emptyCgroup(process: LaunchedProcess): Promise<boolean> {
  if (process.cgroup === null) return true;
  const empty = await killLaunchCgroup(process.cgroup);
  await removeLaunchCgroup(process.cgroup);
  return empty;
}

/** Stop `process` as `spec` says; `cutShort` ends the grace time early (host stop budget). */
export async function stopLaunched(
  process: LaunchedProcess,
  spec: ProcessSpec,
  cutShort?: AbortSignal,
): Promise<StopResult> {
  const escaped = await escapedFrom(process);
  const [group, survivors] = await Promise.all([
    terminateGroup(
      process.pid,
      spec.stopSignal,
      spec.stopTimeoutMs,
      () => process.hasExited(),
      cutShort,
    ),
    terminateProcesses(escaped, spec.stopSignal, spec.stopTimeoutMs, cutShort),
  ]);
  const emptied = await emptyCgroup(process);
  const seen = await Promise.race([process.exited, sleep(EXIT_WAIT_MS, null)]);
  const info = seen ?? { exitCode: 137, signal: 'SIGKILL' as const, at: Date.now() };
  return {
    info,
    killed: group.killed,
    survived: group.survived || survivors.length > 0 || !emptied,
  };
}

/** After the leader exited on its own: end what it left behind (group members and escapes). */
export async function endRemnants(process: LaunchedProcess, spec: ProcessSpec): Promise<void> {
  const escaped = await escapedFrom(process);
  await Promise.all([
    (async () => {
      if (await groupAlive(process.pid))
        await terminateGroup(process.pid, spec.stopSignal, spec.stopTimeoutMs, () => true);
    })(),
    terminateProcesses(escaped, spec.stopSignal, spec.stopTimeoutMs),
  ]);
  await emptyCgroup(process);
}
