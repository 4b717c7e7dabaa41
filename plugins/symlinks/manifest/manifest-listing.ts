/**
 * The manifest pickers: files of the snapshot folder, and the backups of one service (its
 * template's file name with the time tokens as wildcards). Only regular files directly in the
 * folder, whose real path stays inside it.
 */
import { compareText } from '../../../sdk/index.js';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { processSlug } from '../backup/backup-settings.js';

/** One listed file. */
export interface ListedFile {
  readonly path: string;
  readonly name: string;
  readonly size_bytes: number;
  readonly modified_at: number;
}

const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

/** Regular files directly in `dir` (newest first), optionally matching `pattern`. */
export async function listFiles(dir: string, pattern?: RegExp): Promise<ListedFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const realDir = await realpath(dir);
  const files = await Promise.all(
    names
      .filter(
        (name) => SAFE_NAME.test(name) && !name.startsWith('.') && (pattern?.test(name) ?? true),
      )
      .map(async (name): Promise<ListedFile | undefined> => {
        const path = join(dir, name);
        try {
          const real = await realpath(path);
          const offset = relative(realDir, real);
          if (offset.startsWith('..') || offset.includes('/')) return undefined;
          const info = await stat(real);
          if (!info.isFile()) return undefined;
          return {
            path,
            name,
            size_bytes: info.size,
            modified_at: Math.floor(info.mtimeMs / 1000),
          };
        } catch {
          return undefined;
        }
      }),
  );
  return files
    .filter((file): file is ListedFile => file !== undefined)
    .sort((a, b) => b.modified_at - a.modified_at || compareText(b.name, a.name));
}

/** The glob (for people) and the regex (for us) of a service's backup file names. */
export function backupPattern(
  template: string,
  processName: string,
): { glob: string; regex: RegExp } {
  const slug = processSlug(processName);
  const glob = basename(template)
    .replace(/\{(timestamp|date|time)\}/g, '*')
    .replace(/\{(process_name|process_slug)\}/g, slug);
  const source = glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return { glob, regex: new RegExp(`^${source}$`) };
}
