/**
 * `stackd.symlinks.allowed_roots` by real path: a path counts as inside when the real path of
 * its nearest existing ancestor (symlinks resolved, `..` gone) lies within the real path of an
 * allowed root. A lexical check is not enough: `allowed/escape → /etc` is lexically inside.
 * The allowed roots are resolved again on every check, so a changed list applies at once.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { BadRequestError } from '../../sdk/index.js';
import { SYMLINK_ROOT_NOT_ALLOWED } from './errors.js';

/** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
export function realOrNearest(path: string): string {
  // The path as the kernel walks it first: `link/..` is the parent of the link's target.
  try {
    return realpathSync.native(path);
  } catch {
    // Missing (or unreadable): resolve its nearest existing ancestor below.
  }
  let current = resolve(path);
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return current;
      rest.push(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      current = parent;
    }
  }
}

/** `path` is `base` or lies under it (both already absolute and resolved). */
export function isWithin(base: string, path: string): boolean {
  const offset = relative(base, path);
  return offset === '' || (!offset.startsWith('..') && !isAbsolute(offset));
}

/** The real paths of the allowed roots (empty: no confinement). */
export function realAllowedRoots(allowed: readonly string[]): string[] {
  return allowed.map((root) => realOrNearest(root.trim())).filter((root) => root !== '');
}

/** Whether a path is inside the allowed roots by its real path (always, when none are set). */
export function isAllowed(path: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const real = realOrNearest(path);
  return realAllowedRoots(allowed).some((base) => isWithin(base, real));
}

/** A `..` segment: refused in roots, since the kernel resolves it after the symlinks before it. */
export function hasParentSegment(path: string): boolean {
  return path.split('/').includes('..');
}

/** Refuse a path outside `stackd.symlinks.allowed_roots` (400 naming the field). */
export function checkAllowed(path: string, allowed: readonly string[], field: string): void {
  if (!isAllowed(path, allowed))
    throw new BadRequestError(
      SYMLINK_ROOT_NOT_ALLOWED,
      `${field} is outside stackd.symlinks.allowed_roots (checked by its real path)`,
      { field },
    );
}

/**
 * Whether a destination's folder stays inside the allowed roots by its real path: a folder under
 * `to_root` may be a symlink out. Checked only under a confinement, and only for folders below
 * `to_root` (itself checked when planned).
 */
export function destinationAllowed(
  destination: Buffer,
  toRoot: string,
  confines: readonly string[] | undefined,
): boolean {
  if (confines === undefined || confines.length === 0) return true;
  const folder = destination.subarray(0, destination.lastIndexOf(0x2f)).toString('utf8');
  if (folder === toRoot) return true;
  const real = realOrNearest(folder);
  return confines.some((base) => isWithin(base, real));
}
