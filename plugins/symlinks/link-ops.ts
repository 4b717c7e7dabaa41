/**
 * The file system side of a repair, each step atomic: a link is replaced by creating the new
 * one beside it and renaming it over the old (a crash leaves the old link or the new, never
 * none), and a migrated link is renamed (or, for a copy, created the same way).
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, rename, rm, stat, symlink } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';

const SLASH = 0x2f;

function siblingTemp(path: Buffer): Buffer {
  const slash = path.lastIndexOf(SLASH);
  const dir = slash < 0 ? Buffer.alloc(0) : path.subarray(0, slash + 1);
  return Buffer.concat([dir, Buffer.from(`.stackd-relink-${randomBytes(6).toString('hex')}.tmp`)]);
}

/** The name of a replacement's temp link, which a crash may leave behind. */
export const RELINK_LEFTOVER = /(^|\/)\.stackd-relink-[0-9a-f]{12}\.tmp$/;

/** A temp link of a replacement a crash interrupted (removed by the next repair). */
export function isRelinkLeftover(path: string): boolean {
  return RELINK_LEFTOVER.test(path);
}

/** Whether `path` (bytes) exists after following links. */
export async function targetExists(path: Buffer | string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether a link target (as text) exists, a relative one read from the link's directory. */
export async function linkTargetExists(linkPath: string, target: string): Promise<boolean> {
  return targetExists(isAbsolute(target) ? target : resolve(dirname(linkPath), target));
}

/** Point the link at `path` to `target`, atomically (the old link stays until the rename). */
export async function replaceLink(path: Buffer | string, target: Buffer | string): Promise<void> {
  const bytes = typeof path === 'string' ? Buffer.from(path) : path;
  const temp = siblingTemp(bytes);
  await symlink(target, temp);
  try {
    await rename(temp, bytes);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** What is at a path now, without following a link there. */
export async function pathKind(
  path: Buffer | string,
): Promise<'missing' | 'link' | 'dir' | 'file'> {
  try {
    const stats = await lstat(path);
    return stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'dir' : 'file';
  } catch {
    return 'missing';
  }
}

/** Create a link at `path` (parents made), replacing what is there atomically. */
export async function placeLink(path: string, target: Buffer | string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await replaceLink(path, target);
}

/** Move a link (rename: atomic, same file system only). */
export async function moveLink(from: Buffer | string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await rename(from, to);
}
