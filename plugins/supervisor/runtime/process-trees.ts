/**
 * The process tree of each supervised process: its pid and every live descendant. A launch with
 * a cgroup names its whole tree in one small file (`cgroup.procs`: every member, whatever it did
 * to its session or parent); only launches without one need the process table, which means
 * reading the stat file of every process on the machine.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { TurnBudget } from '../../../sdk/index.js';
import type { LaunchCgroup } from '../cgroups/launch-cgroup.js';
import { liveTrees, readProcTable } from './proc-table.js';

/** A launched process whose tree is asked for. */
export interface TreeRoot {
  readonly pid: number;
  readonly cgroup: LaunchCgroup | null;
}

/**
 * The members of a launch's cgroup, or null when its file cannot be read (the cgroup is gone).
 * Every v1 hierarchy holds the same members (the launch joins them all before it runs the
 * program), so one file tells. Read synchronously, like /proc: the file is generated in memory.
 */
export function cgroupMembersNow(cgroup: LaunchCgroup): number[] | null {
  const file = cgroup.procsFiles[0];
  if (file === undefined) return null;
  const text = readSmallFile(file);
  if (text === null) return null;
  const pids: number[] = [];
  for (const line of text.split('\n')) {
    const pid = Number.parseInt(line, 10);
    if (Number.isInteger(pid) && pid > 1 && pid !== process.pid) pids.push(pid);
  }
  return pids;
}

let buffer = Buffer.alloc(4096);

/** A generated (size-less) file's text through one reused buffer; null when it cannot be read. */
function readSmallFile(file: string): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.alloc(buffer.length)]);
    }
    return buffer.toString('latin1', 0, length);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The tree of every root, by its key: sorted pids, the root first added when neither source
 * knows it yet (a table or cgroup file read just before the launch). A thousand cgroup files are
 * read over several turns of the event loop (in one, they held it for some 30 ms).
 */
export async function processTrees<K>(roots: ReadonlyMap<K, TreeRoot>): Promise<Map<K, number[]>> {
  const trees = new Map<K, number[]>();
  const uncontained = new Map<K, number>();
  const turn = new TurnBudget();
  for (const [key, root] of roots) {
    if (turn.spent()) await turn.next();
    const members = root.cgroup === null ? null : cgroupMembersNow(root.cgroup);
    if (members === null) uncontained.set(key, root.pid);
    else trees.set(key, withRoot(members, root.pid));
  }
  if (uncontained.size === 0) return trees;
  const table = await readProcTable();
  const found =
    table === null ? new Map<number, number[]>() : liveTrees(table, [...uncontained.values()]);
  for (const [key, pid] of uncontained) trees.set(key, withRoot(found.get(pid) ?? [], pid));
  return trees;
}

function withRoot(pids: readonly number[], root: number): number[] {
  const tree = pids.includes(root) ? [...pids] : [root, ...pids];
  return tree.sort((a, b) => a - b);
}
