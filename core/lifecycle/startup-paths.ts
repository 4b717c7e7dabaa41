/**
 * The paths the host is started with (`--data-dir`, `--config`), checked before anything is
 * created or read: one sentence naming the path and what is wrong with it.
 *
 * The data dir is created one level at a time from its nearest existing ancestor instead of
 * `mkdirSync(…, {recursive: true})`: on kernel pseudo-filesystems such as /proc, mkdir answers
 * ENOENT for a parent that exists, and Node's recursive mkdir then retries forever at full CPU
 * (signals are never handled, since the event loop never turns).
 */
import { accessSync, constants, mkdirSync, statfsSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';

/** A path the host cannot use; the message names the path and the problem. */
export class StartupPathError extends Error {
  override readonly name = 'StartupPathError';
}

/** Kernel filesystems that hold no files of ours (statfs magic numbers of Linux). */
const PSEUDO_FILESYSTEMS: ReadonlyMap<number, string> = new Map([
  [0x9fa0, 'proc'],
  [0x62656572, 'sysfs'],
  [0x27e0eb, 'cgroup'],
  [0x63677270, 'cgroup2'],
  [0x64626720, 'debugfs'],
  [0x73636673, 'securityfs'],
  [0x1cd1, 'devpts'],
  [0x74726163, 'tracefs'],
  [0xcafe4a11, 'bpf'],
]);

const PSEUDO_ROOTS = ['/proc', '/sys'];

/** Words for the errno codes a path can fail with. */
function explain(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only filesystem';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a directory';
    case 'ENOENT':
      return 'does not exist';
    case 'EEXIST':
      return 'already exists and is not a directory';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'ENAMETOOLONG':
      return 'name too long';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/** stat() that says "missing" for absent paths and throws a StartupPathError for the rest. */
function statIfPresent(path: string, what: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new StartupPathError(`${what} ${path}: ${explain(error)}`);
  }
}

function pseudoFilesystemOf(path: string): string | undefined {
  const root = PSEUDO_ROOTS.find((prefix) => path === prefix || path.startsWith(prefix + sep));
  try {
    const type = PSEUDO_FILESYSTEMS.get(statfsSync(path).type);
    if (type !== undefined) return type;
  } catch {
    // statfs is best effort: the prefix check below still catches /proc and /sys.
  }
  return root === undefined ? undefined : root.slice(1);
}

/**
 * Make sure `path` is a directory the host can write, creating the missing levels (mode 0700).
 * Throws a {@link StartupPathError} saying what is wrong; never loops.
 */
export function prepareDataDir(path: string): void {
  const target = resolve(path);
  const what = 'data dir';
  const missing: string[] = [];
  let existing = target;
  let stats = statIfPresent(existing, what);
  while (stats === undefined) {
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) throw new StartupPathError(`${what} ${target}: no existing parent`);
    existing = parent;
    stats = statIfPresent(existing, what);
  }
  const subject = existing === target ? `${what} ${target}` : `${what} ${target}: ${existing}`;
  if (!stats.isDirectory()) throw new StartupPathError(`${subject} is a file, not a directory`);
  const pseudo = pseudoFilesystemOf(existing);
  if (pseudo !== undefined)
    throw new StartupPathError(
      `${what} ${target}: ${existing} is on the kernel's ${pseudo} filesystem, which cannot hold files; choose a directory on a disk`,
    );
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new StartupPathError(`${subject} is not writable (${explain(error)})`);
  }
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: 0o700 });
    } catch (error) {
      if (
        (error as NodeJS.ErrnoException).code === 'EEXIST' &&
        statIfPresent(level, what)?.isDirectory()
      )
        continue;
      throw new StartupPathError(`${what} ${target}: cannot create ${level} (${explain(error)})`);
    }
  }
}

/** Make sure `path` is a readable file; throws a {@link StartupPathError} saying what is wrong. */
export function checkConfigFile(path: string): void {
  const target = resolve(path);
  const what = 'config file';
  const stats = statIfPresent(target, what);
  if (stats === undefined) {
    // Name the level that is missing or is a file, so "a/b.json" with "a" a file reads right.
    let ancestor = dirname(target);
    while (statIfPresent(ancestor, what) === undefined && dirname(ancestor) !== ancestor)
      ancestor = dirname(ancestor);
    if (statIfPresent(ancestor, what)?.isDirectory() === false)
      throw new StartupPathError(`${what} ${target}: ${ancestor} is a file, not a directory`);
    throw new StartupPathError(`${what} ${target}: not found`);
  }
  if (stats.isDirectory())
    throw new StartupPathError(`${what} ${target} is a directory, not a file`);
  if (!stats.isFile()) throw new StartupPathError(`${what} ${target} is not a regular file`);
  try {
    accessSync(target, constants.R_OK);
  } catch (error) {
    throw new StartupPathError(`${what} ${target} is not readable (${explain(error)})`);
  }
}
