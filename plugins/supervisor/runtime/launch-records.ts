/**
 * Reading the launch records back at start. Synchronous on purpose: they are small local files
 * read once per boot, and the adoptions wait for them. Through the thread pool, 51 records took
 * 15–30 ms of waiting after the listen on a loaded machine; read directly, about 2 ms.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedGroup } from './launch-book.js';

/** Every readable record in `dir` (`<pid>.json`); a torn or foreign file is skipped. */
export function readLaunchRecords(dir: string): RecordedGroup[] {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  const records = files
    .filter((file) => /^\d+\.json$/.test(file))
    .map((file) => readRecord(join(dir, file)));
  return records.filter(
    (record): record is RecordedGroup =>
      record !== undefined && Number.isInteger(record.pid) && record.pid > 1,
  );
}

/** A small file's text, or undefined when it does not exist. */
export function readSmallFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A launch record, or undefined when it cannot be read or parsed (gone, or a torn write). */
function readRecord(path: string): RecordedGroup | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as RecordedGroup;
  } catch {
    return undefined;
  }
}
