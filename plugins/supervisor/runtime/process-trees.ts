/**
 * The process tree of each supervised process: its pid and every live descendant. A launch with
 * a cgroup names its whole tree in one small file (`cgroup.procs`: every member, whatever it did
 * to its session or parent); only launches without one need the process table, which means
 * reading the stat file of every process on the machine.
 */
import { closeSync, openSync } from 'node:fs';
import { TurnBudget } from '../../../sdk/index.js';
import { pidsInBuffer, readGeneratedBytes, readPidList } from '../cgroups/generated-file.js';
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
 * `files` keeps the file open for the next reading.
 */
export function cgroupMembersNow(cgroup: LaunchCgroup, files?: CgroupFiles): number[] | null {
  const file = cgroup.procsFiles[0];
  if (file === undefined) return null;
  if (files === undefined) return readPidList(file);
  const length = files.read(file);
  return length === null ? null : pidsInBuffer(length);
}

/**
 * Cgroup v1 answers a read from an open `cgroup.procs` file with the member list it made for
 * that file's previous read while that list is less than a second old (each read keeps it a
 * second longer): a kept file read again sooner is reopened, which lists the members afresh.
 */
const V1_LIST_KEPT_MS = 1_500;

/** A kept `cgroup.procs` file and when it was last read. */
interface KeptFile {
  fd: number;
  at: number;
}

/**
 * `cgroup.procs` files kept open between readings of every tree: a read from offset 0 lists the
 * members again, so each reading costs one `pread` instead of a path lookup, a read and a close
 * (with 1,000 launches the opens and closes were most of a metrics tick's system time). A removed
 * cgroup's file fails to read (ENODEV): it is closed.
 */
export class CgroupFiles {
  private files = new Map<string, KeptFile>();
  private used = new Map<string, KeptFile>();

  /** The file's length in the shared buffer; null when it cannot be read. */
  read(file: string): number | null {
    const now = performance.now();
    const kept = this.used.get(file) ?? this.files.get(file);
    if (kept !== undefined && now - kept.at < V1_LIST_KEPT_MS) this.forget(file, kept);
    else if (kept !== undefined) {
      const length = this.readKept(file, kept, now);
      if (length !== null) return length;
    }
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      return null;
    }
    return this.readKept(file, { fd, at: now }, now);
  }

  private readKept(file: string, kept: KeptFile, now: number): number | null {
    try {
      const length = readGeneratedBytes(kept.fd);
      kept.at = now;
      this.used.set(file, kept);
      return length;
    } catch {
      this.forget(file, kept);
      return null;
    }
  }

  private forget(file: string, kept: KeptFile): void {
    closeSync(kept.fd);
    this.files.delete(file);
    this.used.delete(file);
  }

  /** Close the files not read since the last call: their launches are gone. */
  closeUnused(): void {
    for (const [file, kept] of this.files) if (this.used.get(file) !== kept) closeSync(kept.fd);
    this.files = this.used;
    this.used = new Map();
  }

  /** Close every kept file. */
  close(): void {
    this.closeUnused();
    this.closeUnused();
  }
}

/**
 * The tree of every root, by its key: sorted pids, the root first added when neither source
 * knows it yet (a table or cgroup file read just before the launch). With `files`, the cgroup
 * files stay open for the next call and those of launches not among `roots` are closed. A
 * thousand cgroup files are read over several turns of the event loop (in one, they held it for
 * some 30 ms).
 */
export async function processTrees<K>(
  roots: ReadonlyMap<K, TreeRoot>,
  files?: CgroupFiles,
): Promise<Map<K, number[]>> {
  const trees = new Map<K, number[]>();
  const uncontained = new Map<K, number>();
  const turn = new TurnBudget();
  for (const [key, root] of roots) {
    if (turn.spent()) await turn.next();
    const members = root.cgroup === null ? null : cgroupMembersNow(root.cgroup, files);
    if (members === null) uncontained.set(key, root.pid);
    else trees.set(key, withRoot(members, root.pid));
  }
  files?.closeUnused();
  if (uncontained.size === 0) return trees;
  const table = await readProcTable();
  const found =
    table === null ? new Map<number, number[]>() : liveTrees(table, [...uncontained.values()]);
  for (const [key, pid] of uncontained) trees.set(key, withRoot([...(found.get(pid) ?? [])], pid));
  return trees;
}

function withRoot(pids: number[], root: number): number[] {
  if (pids.length === 1 && pids[0] === root) return pids;
  if (!pids.includes(root)) pids.push(root);
  return pids.sort((a, b) => a - b);
}
