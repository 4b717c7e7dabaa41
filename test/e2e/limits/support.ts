/** Helpers of the limits e2e tests: live pids by command line, stackd's cgroup directories. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Live (non-zombie) pids whose command line is exactly `argv`. */
export function pidsRunning(argv: readonly string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') !== wanted) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && state !== 'X') found.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

/** A sleep duration no other test uses, to find its process by command line. */
export function uniqueSeconds(): string {
  return String(100_000 + Math.floor(Math.random() * 800_000));
}

/** This test process's own directory in v1 hierarchy `controller` (the host's is the same). */
export function ownCgroupDir(controller: string): string | undefined {
  const line = readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .find((entry) => entry.split(':')[1]?.split(',').includes(controller));
  if (line === undefined) return undefined;
  const own = line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1);
  const dir = join('/sys/fs/cgroup', controller, own);
  return existsSync(dir) ? dir : undefined;
}

/** The existing stackd base directories of the host on `dataDir`, one per v1 hierarchy. */
export function stackdCgroupBases(dataDir: string): string[] {
  const name = `stackd-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
  return ['freezer', 'memory', 'pids', 'cpu', 'cpuacct']
    .map((controller) => ownCgroupDir(controller))
    .filter((own): own is string => own !== undefined)
    .map((own) => join(own, name))
    .filter((base) => existsSync(base));
}

/** The launch cgroups of the host on `dataDir`. */
export function launchCgroupDirs(dataDir: string): string[] {
  return stackdCgroupBases(dataDir).flatMap((base) =>
    readdirSync(base, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(base, entry.name)),
  );
}
