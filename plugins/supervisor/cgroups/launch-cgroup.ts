/**
 * One launch's cgroup: a directory per hierarchy (v1) or one directory (v2) holding the launched
 * process and everything it starts, whatever it does to its session, group or environment.
 * Stops end its members: v2 writes `cgroup.kill`; v1 freezes the cgroup (nothing can fork while
 * its members are being killed), SIGKILLs every pid in `cgroup.procs`, then thaws it.
 */
import { readdir, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { V1_CONTROLLERS, type CgroupLayout, type V1Controller } from './cgroup-detect.js';
import { readGeneratedFile, readPidList } from './generated-file.js';

const FREEZE_WAIT_MS = 2_000;
const EMPTY_WAIT_MS = 5_000;

/** The cgroup directories of one launch. */
export interface LaunchCgroup {
  readonly kind: 'v1' | 'v2';
  /** Every directory (one per v1 hierarchy). */
  readonly dirs: readonly string[];
  /** The `cgroup.procs` files the launch's pid is written to before it runs the program. */
  readonly procsFiles: readonly string[];
  /** Directory of a v1 controller (or the v2 directory); undefined when not available. */
  dirOf(controller: string): string | undefined;
}

/** The directories of launch `name` under `layout` (not created yet). */
export function launchCgroupOf(layout: CgroupLayout, name: string): LaunchCgroup | null {
  if (layout.kind === 'none') return null;
  if (layout.kind === 'v2') return v2Cgroup(join(layout.base, name));
  return v1Cgroup(
    new Map(
      Object.entries(layout.bases).map(([controller, base]) => [controller, join(base, name)]),
    ),
  );
}

/**
 * A launch's `cgroup.procs` file. Every directory here is absolute and normalized already (made by
 * `join` above, or read back from a record that {@link recordedCgroup} wrote from them), so a
 * concatenation does what `join` would. `join` normalizes its result character by character:
 * 51 records of 5 v1 directories took 7–11 ms of CPU in a script under the host's V8 flags,
 * 0.6 ms concatenated (docs/adoption.md, "Less CPU per adopting boot, continued").
 */
function procsFileOf(dir: string): string {
  return `${dir}/cgroup.procs`;
}

function v2Cgroup(dir: string): LaunchCgroup {
  return { kind: 'v2', dirs: [dir], procsFiles: [procsFileOf(dir)], dirOf: () => dir };
}

function v1Cgroup(byController: ReadonlyMap<string, string>): LaunchCgroup {
  const dirs = [...new Set(byController.values())];
  return {
    kind: 'v1',
    dirs,
    procsFiles: dirs.map(procsFileOf),
    dirOf: (controller) => byController.get(controller),
  };
}

/**
 * A launch's cgroup as its launch record keeps it: the next host adopting the process finds its
 * cgroup from the record instead of waiting for its own detection of the machine's layout.
 */
export type RecordedCgroup =
  | { readonly kind: 'v2'; readonly dir: string }
  | { readonly kind: 'v1'; readonly dirs: Readonly<Partial<Record<V1Controller, string>>> };

/** What a launch record keeps of `cgroup`. */
export function recordedCgroup(cgroup: LaunchCgroup): RecordedCgroup {
  if (cgroup.kind === 'v2') return { kind: 'v2', dir: cgroup.dirs[0] ?? '' };
  const dirs: Partial<Record<V1Controller, string>> = {};
  for (const controller of V1_CONTROLLERS) {
    const dir = cgroup.dirOf(controller);
    if (dir !== undefined) dirs[controller] = dir;
  }
  return { kind: 'v1', dirs };
}

/** Whether a record's `cgroup` field has the shape {@link recordedCgroup} writes. */
export function isRecordedCgroup(value: unknown): value is RecordedCgroup {
  if (typeof value !== 'object' || value === null) return false;
  const { kind, dir, dirs } = value as { kind?: unknown; dir?: unknown; dirs?: unknown };
  if (kind === 'v2') return typeof dir === 'string' && dir !== '';
  if (kind !== 'v1' || typeof dirs !== 'object' || dirs === null) return false;
  const entries = Object.entries(dirs);
  return entries.length > 0 && entries.every(([, path]) => typeof path === 'string');
}

/** The cgroup a launch record names (its directories may be gone since). */
export function cgroupFromRecord(recorded: RecordedCgroup): LaunchCgroup {
  if (recorded.kind === 'v2') return v2Cgroup(recorded.dir);
  return v1Cgroup(new Map(Object.entries(recorded.dirs)));
}

/** The pids in a cgroup directory (empty when it is gone). */
export function cgroupMembers(dir: string): Promise<number[]> {
  return Promise.resolve(readPidList(join(dir, 'cgroup.procs')) ?? []);
}

/** Pids in any of the launch's directories. */
export async function launchMembers(cgroup: LaunchCgroup): Promise<number[]> {
  const lists = await Promise.all(cgroup.dirs.map((dir) => cgroupMembers(dir)));
  return [...new Set(lists.flat())];
}

function killEach(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone already */
    }
  }
}

async function freeze(dir: string, state: 'FROZEN' | 'THAWED'): Promise<boolean> {
  try {
    await writeFile(join(dir, 'freezer.state'), state);
  } catch {
    return false;
  }
  const deadline = Date.now() + FREEZE_WAIT_MS;
  while (Date.now() < deadline) {
    const now = (readGeneratedFile(join(dir, 'freezer.state')) ?? '').trim();
    if (now === state || now === '') return true;
    await sleep(10);
  }
  return false;
}

/** Poll until every directory is empty; false after {@link EMPTY_WAIT_MS}. */
async function waitEmpty(cgroup: LaunchCgroup): Promise<boolean> {
  const deadline = Date.now() + EMPTY_WAIT_MS;
  for (;;) {
    if ((await launchMembers(cgroup)).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
}

/** SIGKILL every member; resolves true once the cgroup is empty. */
export async function killLaunchCgroup(cgroup: LaunchCgroup): Promise<boolean> {
  if ((await launchMembers(cgroup)).length === 0) return true;
  if (cgroup.kind === 'v2') {
    await writeFile(join(cgroup.dirs[0] ?? '', 'cgroup.kill'), '1').catch(() => undefined);
    return waitEmpty(cgroup);
  }
  const freezer = cgroup.dirOf('freezer');
  const frozen = freezer !== undefined && (await freeze(freezer, 'FROZEN'));
  // Frozen: one pass reaches everyone. Not frozen: repeat, a forking member may add pids.
  for (let pass = 0; pass < (frozen ? 1 : 20); pass += 1) {
    const members = await launchMembers(cgroup);
    if (members.length === 0) break;
    killEach(members);
    if (!frozen) await sleep(10);
  }
  // A frozen process dies of SIGKILL only once thawed.
  if (freezer !== undefined) await freeze(freezer, 'THAWED');
  return waitEmpty(cgroup);
}

/** Remove the launch's directories (only empty ones can be removed; a busy one stays). */
export async function removeLaunchCgroup(cgroup: LaunchCgroup): Promise<void> {
  await Promise.all(cgroup.dirs.map((dir) => rmdir(dir).catch(() => undefined)));
}

/** Sub-directories of `base` (the launch cgroups a host left there). */
export async function childDirs(base: string): Promise<string[]> {
  const entries = await readdir(base, { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}
