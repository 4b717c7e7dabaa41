/**
 * What the floor programs share (scale/held-floor.ts, the memory floor of the scale series, and
 * launch-floor.ts, the launch floor): their arguments, stackd's cgroup layout found as the host
 * finds it with a directory of the floor's own in each hierarchy, the launch wrapper that puts a
 * child in its cgroups before the program runs, stopping a child's process group, and serving
 * the bench's start / restart / stop, each timed by the floor itself.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, readFile, rmdir } from 'node:fs/promises';
import {
  detectCgroups,
  layoutBases,
  type CgroupLayout,
} from '../../plugins/supervisor/cgroups/cgroup-detect.js';
import { wrappedArgv } from '../../plugins/supervisor/cgroups/cgroup-wrapper.js';
import { serveAgent, type AgentCommand } from './agent-protocol.js';

/** `COUNT COMMAND_JSON` from the command line; the usage names `script` when either is missing. */
export function floorArguments(script: string): { count: number; command: string[] } {
  const count = Number(process.argv[2] ?? 50);
  const command = JSON.parse(process.argv[3] ?? '[]') as string[];
  if (command.length === 0) throw new Error(`usage: ${script} COUNT COMMAND_JSON`);
  return { count, command };
}

/** The floor's cgroups: the layout and its base directories, created (none: no cgroups). */
export interface FloorCgroups {
  readonly layout: CgroupLayout;
  readonly bases: readonly string[];
}

/** Find the cgroup layout as the host does and create the floor's `dirName` in each hierarchy. */
export async function floorCgroups(dirName: string): Promise<FloorCgroups> {
  const [mounts, selfCgroup] = await Promise.all([
    readFile('/proc/self/mounts', 'utf8').catch(() => ''),
    readFile('/proc/self/cgroup', 'utf8').catch(() => ''),
  ]);
  const layout = await detectCgroups({ mounts, selfCgroup, dirName });
  const bases = layoutBases(layout);
  await Promise.all(bases.map((base) => mkdir(base, { recursive: true })));
  return { layout, bases };
}

/** Remove the floor's base directories (each is empty once its launches' were removed). */
export async function removeFloorCgroups(cgroups: FloorCgroups): Promise<void> {
  await Promise.all(cgroups.bases.map((base) => rmdir(base).catch(() => undefined)));
}

/** The argv that runs `command` inside the cgroups of `procsFiles` (as is without any). */
export function argvInCgroups(
  procsFiles: readonly string[],
  command: readonly string[],
): [string, ...string[]] {
  const [file = '', ...args] = procsFiles.length === 0 ? command : wrappedArgv(procsFiles, command);
  return [file, ...args];
}

/** The child's exit, heard from now on. */
export const exitOf = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => child.once('exit', () => resolve()));

/**
 * SIGTERM to the child's process group, then its exit (nothing to do when it has exited).
 * `exited`: an exit watch the floor already holds for the child.
 */
export async function stopGroup(child: ChildProcess, exited?: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = exited ?? exitOf(child);
  try {
    process.kill(-(child.pid ?? Number.NaN), 'SIGTERM');
  } catch {
    /* gone already */
  }
  await exit;
}

/** What a floor does for each command, and the pids it holds afterwards. */
export type FloorSteps = Record<AgentCommand['cmd'], () => Promise<void>> & {
  readonly pids: () => number[];
};

/** Serve the bench's commands: each step timed here, answered with the pids held after it. */
export function serveFloor(steps: FloorSteps): void {
  serveAgent(process.pid, async ({ cmd }) => {
    const start = performance.now();
    await steps[cmd]();
    return {
      ok: true,
      ms: performance.now() - start,
      pids: steps.pids(),
      supervisor_pid: process.pid,
    };
  });
}
