/** The process tree of every supervised process with a pid, by process name. */
import type { ProcessEntry } from '../../../sdk/index.js';
import type { ProcessRunner } from '../runtime/process-runner.js';
import { processTrees, type CgroupFiles, type TreeRoot } from '../runtime/process-trees.js';

/** Process trees by process name (see `Supervisor.pidTrees`). */
export type PidTrees = ReadonlyMap<string, readonly number[]>;

/** What a tree is found from: the runner's pid and cgroup. */
export type TreeSource = Pick<ProcessRunner, 'pid' | 'cgroup'>;

/** The trees of `entries` read now; `files` keeps cgroup files open between readings. */
export async function scanTrees(
  entries: readonly ProcessEntry[],
  runnerOf: (processName: string) => TreeSource | undefined,
  files?: CgroupFiles,
): Promise<PidTrees> {
  const trees = new Map<string, readonly number[]>();
  const roots = new Map<string, TreeRoot>();
  for (const entry of entries) {
    // The host's own tree would hold every supervised process: it counts alone.
    if (entry.self) trees.set(entry.process_name, [process.pid]);
    const runner = runnerOf(entry.process_name);
    const pid = runner?.pid ?? null;
    if (!entry.self && pid !== null)
      roots.set(entry.process_name, { pid, cgroup: runner?.cgroup ?? null });
  }
  for (const [name, tree] of await processTrees(roots, files)) trees.set(name, tree);
  return trees;
}
