/**
 * What a failed background job records: the disk's refusals (full, quota, read-only, I/O error)
 * get a stable code and a sentence saying what happened, so a job status tells a full disk from a
 * bug without reading the host log.
 */
import { STORAGE_FULL, STORAGE_IO_ERROR, STORAGE_UNWRITABLE } from './errors.js';

/** A job's recorded error. */
export interface JobFailure {
  readonly message: string;
  readonly code?: string;
}

const STORAGE_CODES: Readonly<Record<string, { code: string; reason: string }>> = {
  ENOSPC: { code: STORAGE_FULL, reason: 'no space left on the device' },
  EDQUOT: { code: STORAGE_FULL, reason: 'the disk quota is exhausted' },
  EROFS: { code: STORAGE_UNWRITABLE, reason: 'the file system is read-only' },
  EIO: { code: STORAGE_IO_ERROR, reason: 'the device reported an I/O error' },
};

/** The recorded error of a job that threw `error`. */
export function jobFailure(error: unknown): JobFailure {
  const message = error instanceof Error ? error.message : String(error);
  const errno = (error as NodeJS.ErrnoException | undefined)?.code;
  const storage = errno === undefined ? undefined : STORAGE_CODES[errno];
  if (storage === undefined) return { message };
  return { message: `Storage failure: ${storage.reason} (${message})`, code: storage.code };
}
