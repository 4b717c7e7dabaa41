/**
 * Walk symlink trees fast without holding them: directories are read in parallel (bounded), the
 * links of a directory are read with their targets in one batch, and each batch goes to the
 * caller before more is read (its promise is awaited: backpressure). Directory symlinks are
 * reported as links and never followed, so loops cannot trap the walk. Paths are kept as bytes
 * (names need not be UTF-8); `path` is their text for reports.
 */
import type { Dirent } from 'node:fs';
import { lstat, opendir, readlink } from 'node:fs/promises';

/** One symlink found. */
export interface FoundLink {
  /** The link's path as bytes, for every file system call. */
  readonly pathBytes: Buffer;
  /** The path as text (invalid UTF-8 shown as U+FFFD), for reports. */
  readonly path: string;
  /** The target as bytes, exactly as stored. */
  readonly targetBytes: Buffer;
  /** The target as text. */
  readonly target: string;
}

/** A directory or link that could not be read. */
export interface ScanError {
  readonly path: string;
  readonly error: string;
}

/** How far a scan got. */
export interface ScanProgress {
  readonly directories: number;
  readonly links: number;
}

/** Options of a scan. */
export interface ScanOptions {
  readonly concurrency: number;
  readonly signal?: AbortSignal;
  /** Called for every unreadable directory or link; the scan goes on. */
  readonly onError?: (error: ScanError) => void;
  /** Called after each directory. */
  readonly onProgress?: (progress: ScanProgress) => void;
}

const SLASH = Buffer.from('/');
// Links of one directory are read this many at a time.
const READLINK_BATCH = 256;

function childPath(dir: Buffer, name: Buffer): Buffer {
  return dir.length > 0 && dir[dir.length - 1] === 0x2f
    ? Buffer.concat([dir, name])
    : Buffer.concat([dir, SLASH, name]);
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code !== undefined ? code : error instanceof Error ? error.message : String(error);
}

async function kindOf(entry: Dirent<Buffer>, path: Buffer): Promise<'link' | 'dir' | 'other'> {
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile() || entry.isFIFO() || entry.isSocket() || entry.isBlockDevice()) return 'other';
  if (entry.isCharacterDevice()) return 'other';
  // DT_UNKNOWN on some file systems: ask.
  const stats = await lstat(path);
  return stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'dir' : 'other';
}

/**
 * Walk `roots` (existing directories) and hand every batch of links to `onBatch`, which is
 * awaited before the walk reads on. Resolves when every directory was read.
 */
export async function walkLinks(
  roots: readonly string[],
  onBatch: (links: FoundLink[]) => Promise<void> | void,
  options: ScanOptions,
): Promise<ScanProgress> {
  const pending: Buffer[] = roots.map((root) => Buffer.from(root));
  let active = 0;
  let directories = 0;
  let links = 0;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };

  const readDirectory = async (dir: Buffer): Promise<void> => {
    let handle;
    try {
      handle = await opendir(dir, { encoding: 'buffer', bufferSize: 256 } as never);
    } catch (error) {
      options.onError?.({ path: dir.toString('utf8'), error: describe(error) });
      return;
    }
    let batch: Buffer[] = [];
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const paths = batch;
      batch = [];
      const found: FoundLink[] = [];
      await Promise.all(
        paths.map(async (pathBytes) => {
          try {
            const targetBytes = (await readlink(pathBytes, { encoding: 'buffer' })) as Buffer;
            found.push({
              pathBytes,
              path: pathBytes.toString('utf8'),
              targetBytes,
              target: targetBytes.toString('utf8'),
            });
          } catch (error) {
            options.onError?.({ path: pathBytes.toString('utf8'), error: describe(error) });
          }
        }),
      );
      links += found.length;
      if (found.length > 0) await onBatch(found);
    };
    try {
      for await (const entry of handle as unknown as AsyncIterable<Dirent<Buffer>>) {
        if (options.signal?.aborted === true) break;
        const path = childPath(dir, entry.name);
        const kind = await kindOf(entry, path).catch(() => 'other' as const);
        if (kind === 'link') {
          batch.push(path);
          if (batch.length >= READLINK_BATCH) await flush();
        } else if (kind === 'dir') {
          pending.push(path);
          notify();
        }
      }
      await flush();
    } catch (error) {
      options.onError?.({ path: dir.toString('utf8'), error: describe(error) });
    }
    directories += 1;
    options.onProgress?.({ directories, links });
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      if (options.signal?.aborted === true) return;
      const dir = pending.pop();
      if (dir === undefined) {
        if (active === 0) {
          notify();
          return;
        }
        await new Promise<void>((resolve) => {
          const previous = wake;
          wake = () => {
            previous?.();
            resolve();
          };
        });
        continue;
      }
      active += 1;
      try {
        await readDirectory(dir);
      } finally {
        active -= 1;
        notify();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, () => worker()));
  return { directories, links };
}
