/**
 * The launch record (what a host writes for each launch, and the next host reads to adopt) and
 * reading the records back at start. Synchronous on purpose: they are small local files
 * read once per boot, and the adoptions wait for them. Through the thread pool, 51 records took
 * 15–30 ms of waiting after the listen on a loaded machine; read directly, about 2 ms.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedCgroup } from '../cgroups/launch-cgroup.js';

/** One launched group as recorded. */
export interface RecordedGroup {
  readonly process_name: string;
  readonly pid: number;
  /** Start time of the leader in clock ticks since boot, as the kernel reports it. */
  readonly start_ticks: string;
  readonly marker: string;
  /** What the next host needs to adopt it (absent in records of older hosts). */
  readonly adoption?: AdoptionFacts;
}

/** The facts of a launch a next host keeps when it adopts the process. */
export interface AdoptionFacts {
  /** Epoch ms of the launch: uptime continues from it. */
  readonly started_at: number;
  /** The process's restart counter including this launch. */
  readonly restarts: number;
  /** Of the configuration it was launched with: a change while the host was away restarts it. */
  readonly fingerprint: string;
  /** Its output goes through FIFOs (fifos/<pid>.out|.err) the next host reopens. */
  readonly fifos: boolean;
  /**
   * Its cgroup (null: launched without one), so that the next host adopts it without waiting
   * for its own cgroup detection. Absent in records of older hosts: the next host then asks its
   * detected layout.
   */
  readonly cgroup?: RecordedCgroup | null;
}

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
