/** Helpers for tests with real processes. */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** Compiled fixture programs (`<build>/test/fixtures/programs`). */
export const PROGRAMS_DIR = join(here, '..', '..', '..', 'fixtures', 'programs');

/** The compiled path of a fixture program. */
export function program(name: string): string {
  return join(PROGRAMS_DIR, `${name}.js`);
}

/**
 * True while `pid` runs. A zombie counts as gone: it has exited, and where PID 1 does not reap
 * orphans (this sandbox's init does not) a dead grandchild lingers as a zombie forever.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** A pid written to a file by a fixture, once the file has it. */
export async function readPid(file: string): Promise<number | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}
