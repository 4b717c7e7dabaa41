/**
 * Atomic file writes: a temp file in the same directory, fsync, rename over the target, fsync the
 * directory. A crash leaves either the old file or the new one, never a half-written one. In the
 * sdk so plugins writing outside their storage folder (a service's own config file) get the same
 * guarantee as core.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** File mode; defaults to the existing file's mode, else 0o600 (docs/decisions.md §26). */
  readonly mode?: number;
}

/** Write `data` to `path` atomically, creating parent directories. */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const directory = dirname(path);
  // New folders 0700 and new files 0600 (docs/decisions.md §26); a file that exists keeps its mode.
  await mkdir(directory, { recursive: true, mode: 0o700 });
  await replaceFile(path, data, options.mode ?? (await existingMode(path)) ?? 0o600);
  await syncDirectory(directory);
}

/** One file of {@link writeFilesAtomic}. */
export interface AtomicFile {
  readonly path: string;
  readonly data: string | Uint8Array;
}

/**
 * Write many files atomically, as {@link writeFileAtomic} does each, but with one fsync per
 * directory for all of them instead of one per file: many files written together (a wave of
 * launches recording themselves) pay for the directory once. Resolves, once every written file
 * and its directory are durable, with each file's outcome in order.
 */
export async function writeFilesAtomic(
  files: readonly AtomicFile[],
  options: AtomicWriteOptions = {},
): Promise<PromiseSettledResult<void>[]> {
  const directories = new Map<string, Promise<unknown>>();
  for (const file of files) {
    const directory = dirname(file.path);
    if (!directories.has(directory))
      directories.set(directory, mkdir(directory, { recursive: true, mode: 0o700 }));
  }
  const written = await Promise.allSettled(
    files.map(async (file) => {
      await directories.get(dirname(file.path));
      const mode = options.mode ?? (await existingMode(file.path)) ?? 0o600;
      await replaceFile(file.path, file.data, mode);
    }),
  );
  await Promise.all([...directories.keys()].map(syncDirectory));
  return written;
}

/** Temp file, fsync, rename over `path`; the directory is not synced. */
async function replaceFile(path: string, data: string | Uint8Array, mode: number): Promise<void> {
  const directory = dirname(path);
  const temp = join(
    directory,
    `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    await handle.writeFile(data);
    await handle.chmod(mode); // the umask may have narrowed the mode given to open()
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o7777;
  } catch {
    return undefined;
  }
}

async function syncDirectory(directory: string): Promise<void> {
  // Makes the rename itself durable; some filesystems refuse fsync on directories.
  try {
    const handle = await open(directory, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* best effort */
  }
}
