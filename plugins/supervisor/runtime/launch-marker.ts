/**
 * Every launched process carries `STACKD_LAUNCH=<supervisor id>:<launch id>` in its environment,
 * and its descendants inherit it. /proc/<pid>/environ shows the environment a process was
 * started with, so the marker finds what the process group cannot: a grandchild that called
 * setsid(), one whose parent died and was reparented to init, the members of a group whose
 * leader exited, and processes launched just before a host SIGKILL (nothing recorded yet).
 * The supervisor id is random per data dir, so hosts on other data dirs are never touched; a
 * program that clears its environment is still covered by the process-group records.
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';

/** The environment variable of the marker. */
export const LAUNCH_ENV = 'STACKD_LAUNCH';

/** A new launch id. */
export function newLaunchId(): string {
  return randomUUID().slice(0, 18);
}

const SCAN_CONCURRENCY = 32;

/** Pids (not ours) whose start environment carries a marker beginning with `prefix`. */
export async function markedProcesses(prefix: string): Promise<number[]> {
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return [];
  }
  const needle = Buffer.from(`${LAUNCH_ENV}=${prefix}`);
  const pids = names.map(Number).filter((pid) => Number.isInteger(pid) && pid > 1);
  const found: number[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pids.length) {
      const pid = pids[next++] as number;
      if (pid === process.pid) continue;
      const environ = await readFile(`/proc/${pid}/environ`).catch(() => null);
      if (environ !== null && hasEntry(environ, needle)) found.push(pid);
    }
  };
  await Promise.all(Array.from({ length: SCAN_CONCURRENCY }, () => worker()));
  return found;
}

/** Whether a NUL-separated environment block has an entry starting with `needle`. */
function hasEntry(environ: Buffer, needle: Buffer): boolean {
  let at = environ.indexOf(needle);
  while (at >= 0) {
    if (at === 0 || environ[at - 1] === 0) return true;
    at = environ.indexOf(needle, at + 1);
  }
  return false;
}
