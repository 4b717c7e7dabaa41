/**
 * Where manifests may be (docs/decisions.md §18): the original's `/config/symlink-repair/...` paths map to
 * `<data-dir>/symlink-repair/...`, a relative path is taken under the snapshot folder, and the
 * result must stay within the data dir, a configured manifest dir or a symlink root — checked on
 * the real path of its nearest existing ancestor, so `..`, a symlink out or a NUL cannot escape.
 * A refusal names the field, never echoes what lies outside.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { BadRequestError } from '../../sdk/index.js';
import { isWithin as inside, realOrNearest } from './confinement.js';
import { SYMLINK_PATH_INVALID, SYMLINK_PATH_OUTSIDE, SYMLINK_PATH_REQUIRED } from './errors.js';

const ORIGINAL_PREFIX = '/config/symlink-repair';

/** The plugin's places on disk and the rule for client-given manifest paths. */
export class SymlinkPaths {
  /** `<data-dir>/symlink-repair/snapshots`. */
  readonly snapshotDir: string;
  /** The default manifest: `<snapshot dir>/latest.json`. */
  readonly defaultManifest: string;

  constructor(
    private readonly dataDir: string,
    /** `<data-dir>/symlink-repair` (the plugin's storage folder). */
    readonly storageDir: string,
    private readonly allowedDirs: () => readonly string[],
  ) {
    this.snapshotDir = join(storageDir, 'snapshots');
    this.defaultManifest = join(this.snapshotDir, 'latest.json');
  }

  /** An API path (as the original product wrote it) → this host's path (no checks). */
  mapped(raw: string): string {
    const trimmed = raw.trim();
    if (trimmed === ORIGINAL_PREFIX || trimmed.startsWith(`${ORIGINAL_PREFIX}/`))
      return resolve(this.storageDir, `.${trimmed.slice(ORIGINAL_PREFIX.length)}`);
    return isAbsolute(trimmed) ? resolve(trimmed) : resolve(this.snapshotDir, trimmed);
  }

  /** A manifest path from a client: mapped and confined, or 400 naming `field`. */
  manifest(raw: string, field: string): string {
    if (raw.includes('\u0000'))
      throw new BadRequestError(SYMLINK_PATH_INVALID, `${field} contains a NUL character`, {
        field,
      });
    if (raw.trim() === '')
      throw new BadRequestError(SYMLINK_PATH_REQUIRED, `${field} is required`, { field });
    const path = this.mapped(raw);
    // Longer than the system takes (PATH_MAX 4096, NAME_MAX 255 bytes): refused here.
    if (
      Buffer.byteLength(path) >= 4096 ||
      path.split('/').some((part) => Buffer.byteLength(part) > 255)
    )
      throw new BadRequestError(SYMLINK_PATH_INVALID, `${field} is too long`, { field });
    const real = realOrNearest(path);
    const bases = [this.dataDir, ...this.allowedDirs()].map((base) => realOrNearest(resolve(base)));
    if (!bases.some((base) => inside(base, real)))
      throw new BadRequestError(
        SYMLINK_PATH_OUTSIDE,
        `${field} must stay within the data dir (/config/symlink-repair maps to ` +
          `${this.storageDir}), a configured manifest dir or a symlink root`,
        { field },
      );
    return path;
  }

  /** A path inside the snapshot folder only (the manifest-file picker), or 400. */
  inSnapshots(raw: string | undefined, field: string): string {
    const path = raw === undefined || raw.trim() === '' ? this.defaultManifest : this.mapped(raw);
    if (
      raw?.includes('\u0000') === true ||
      !inside(realOrNearest(this.snapshotDir), realOrNearest(path))
    )
      throw new BadRequestError(
        SYMLINK_PATH_OUTSIDE,
        `${field} must stay within ${this.snapshotDir} (/config/symlink-repair/snapshots)`,
        { field },
      );
    return path;
  }
}
