/**
 * Storage that cannot take a write (disk full, quota, read-only or unwritable data dir) is a
 * condition of the machine, not a bug: requests answer 507 (full) or 503 (unwritable) naming the
 * data dir, `/health` turns unhealthy with the reason, and the host keeps running.
 */

/** What kind of storage failure an error is, or null for anything else. */
export type StorageFailureKind = 'full' | 'unwritable';
/** As classified from the error alone: SQLite's I/O errors need a look at the disk. */
export type StorageErrorKind = StorageFailureKind | 'io';

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
const UNWRITABLE_CODES = new Set(['EROFS']);
// What node-sqlite3-wasm reports when its VFS writes fail (SQLITE_FULL, SQLITE_READONLY, IOERR).
const SQLITE_FULL = /database or disk is full|SQLITE_FULL/i;
const SQLITE_UNWRITABLE = /attempt to write a readonly database|SQLITE_READONLY/i;
// The wasm VFS turns ENOSPC into a plain I/O error.
const SQLITE_IO = /disk I\/O error|SQLITE_IOERR/i;

/** Classify an error (its cause chain too). */
export function storageFailureKind(error: unknown): StorageErrorKind | null {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code !== undefined && FULL_CODES.has(code)) return 'full';
    if (code !== undefined && UNWRITABLE_CODES.has(code)) return 'unwritable';
    if (SQLITE_FULL.test(current.message)) return 'full';
    if (SQLITE_UNWRITABLE.test(current.message)) return 'unwritable';
    if (SQLITE_IO.test(current.message)) return 'io';
  }
  return null;
}
