/**
 * The launch wrapper: `sh` writes its own pid into each cgroup.procs file, then execs the
 * program — same pid, and the program is inside its cgroup before its first instruction, so no
 * child it forks can be missed (writing the pid from the host after spawn would race the fork).
 * A failed write ends the launch with exit code 125 and a line on stderr.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

const SCRIPT =
  'n=$1; shift; while [ "$n" -gt 0 ]; do ' +
  'echo $$ > "$1" || { echo "stackd: cannot enter cgroup $1" >&2; exit 125; }; ' +
  'shift; n=$((n-1)); done; exec "$@"';

/** The argv that runs `argv` inside the cgroups named by `procsFiles`. */
export function wrappedArgv(procsFiles: readonly string[], argv: readonly string[]): string[] {
  return [
    '/bin/sh',
    '-c',
    SCRIPT,
    'stackd-cgroup',
    String(procsFiles.length),
    ...procsFiles,
    ...argv,
  ];
}

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

/**
 * Where a name was last found on a PATH: the next launch of it checks that one file first
 * instead of walking the PATH again (a failed check of each directory before it, per launch).
 */
const foundOnPath = new Map<string, string>();

/**
 * Lookups under way, by what they look for: the launches of a wave all check their program at
 * once, before the first check has ended, so without this each of 1,000 launches of `sleep`
 * walked the whole PATH (a failed check, with its error, for every directory before the one
 * holding it) instead of one walk for the wave.
 */
const lookups = new Map<string, Promise<boolean>>();

/**
 * Whether `program` can be found the way the OS would (a path, or a name on PATH). Through the
 * wrapper a missing program would surface as sh's exit 127; checked first, it keeps the
 * launch's own "program not found" error. Calls for the same program while a lookup of it is
 * under way share that lookup.
 */
export function programExists(
  program: string,
  cwd: string,
  pathVariable: string | undefined,
): Promise<boolean> {
  const path = pathVariable ?? '/usr/local/bin:/usr/bin:/bin';
  const file = programPath(program, cwd);
  const key = file ?? `${path}\0${program}`;
  const running = lookups.get(key);
  if (running !== undefined) return running;
  const lookup = (file === null ? foundOnSearchPath(program, path, key) : executable(file)).finally(
    () => lookups.delete(key),
  );
  lookups.set(key, lookup);
  return lookup;
}

/** The file a name with a slash names (relative to the working dir); null: looked up on PATH. */
function programPath(program: string, cwd: string): string | null {
  if (!program.includes('/')) return null;
  return isAbsolute(program) ? program : resolve(cwd, program);
}

async function foundOnSearchPath(program: string, path: string, key: string): Promise<boolean> {
  const known = foundOnPath.get(key);
  if (known !== undefined && (await executable(known))) return true;
  for (const dir of path.split(delimiter)) {
    const candidate = join(dir, program);
    if (dir !== '' && (await executable(candidate))) {
      foundOnPath.set(key, candidate);
      return true;
    }
  }
  foundOnPath.delete(key);
  return false;
}
