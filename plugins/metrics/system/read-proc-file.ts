/**
 * Read a small kernel file (/proc, /sys) synchronously. These are generated in memory and never
 * wait on a disk, and a synchronous read costs a fraction of fs/promises' threadpool round trip
 * (measured: ~16 µs vs ~100 µs of CPU per file). Never use this for regular files.
 */
import { readFileSync } from 'node:fs';

/** The file's text, or null when it is missing or unreadable. */
export function readProcFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
