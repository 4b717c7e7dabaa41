/**
 * The walks of the symlinks bench (symlinks.bench.ts): `find`, the floor and the scanner over one
 * tree, each in its own process, with its CPU time; warm rounds interleaved and summed, cold
 * rounds with the page cache emptied before each walk.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export function dropCaches(): boolean {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}

/** A run of one walker over the tree: wall time and CPU time (user + system), in ms. */
export interface Walk {
  readonly links: number;
  readonly ms: number;
  readonly cpuMs: number;
}

/** bash's `times`: this shell's and its children's user and system time, in ms. */
function parseTimes(text: string): number[] {
  return [...text.matchAll(/(\d+)m([\d.]+)s/g)].map(
    (match) => (Number(match[1]) * 60 + Number(match[2])) * 1000,
  );
}

export function timeFind(root: string, links: number): Walk {
  const started = performance.now();
  // bash reports its finished children's getrusage with `times` (second line: user, system).
  const result = spawnSync(
    'bash',
    [
      '-c',
      'find "$1" -type l -printf \'%p\\t%l\\n\' >/dev/null && times',
      'find',
      join(root, 'library'),
    ],
    { encoding: 'utf8' },
  );
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`find failed: ${result.stderr}`);
  const [, , user, system] = parseTimes(result.stdout);
  return { links, ms, cpuMs: (user ?? Number.NaN) + (system ?? Number.NaN) };
}

/**
 * A floor: one thread reading directories and link targets, nothing else; or with `worker`, that
 * loop in a worker thread handing the links to the main thread (symlinks-worker-floor-child.ts).
 */
export function timeFloor(root: string, worker = false): Walk {
  const child = worker ? 'symlinks-worker-floor-child.js' : 'symlinks-floor-child.js';
  const result = spawnSync(process.execPath, [join(here, child), join(root, 'library')], {
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`floor child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Walk;
}

/** A scan's walk and how many worker threads it started. */
export type ScanWalk = Walk & { workers: number; rssBeforeMiB: number; rssPeakMiB: number };

/** The scanner over the tree; the RSS is sampled per batch only with `rss` (it costs CPU). */
export function timeScan(root: string, rss = false): ScanWalk {
  const result = spawnSync(
    process.execPath,
    [join(here, 'symlinks-scan-child.js'), join(root, 'library'), '0', ...(rss ? ['rss'] : [])],
    {
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`scan child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ScanWalk;
}

/** The walks of interleaved rounds; the floors only in warm rounds. */
export interface WalkRounds {
  readonly find: Walk[];
  readonly scan: Walk[];
  readonly floor: Walk[];
  readonly workerFloor: Walk[];
}

/**
 * Walks of each walker in a warm round, interleaved; the round counts their sums. One walk's CPU
 * per link swings by itself here, and not with the other walkers' in its round: in the three
 * closing runs of 27 Nov (quiet machine) `find`'s walks varied by 5–14 % (coefficient of
 * variation), the floor's and the scanner's by 4–17 %, and not together: the floor took 6.33 µs
 * a link beside `find`'s 4.65 in one round. A ratio of two single walks carries both swings, and
 * its spread over five rounds was 39 % and 61 % in two of those runs, more than any margin a
 * ratio near 1 can have. Summing three walks of each divides that swing by about √3, for three
 * times the walks (about a minute for 200,000 links).
 */
const WARM_WALKS_PER_ROUND = 3;

export function sumOf(walks: readonly Walk[]): Walk {
  let links = 0;
  let ms = 0;
  let cpuMs = 0;
  for (const walk of walks) {
    links += walk.links;
    ms += walk.ms;
    cpuMs += walk.cpuMs;
  }
  return { links, ms, cpuMs };
}

function checked<T extends Walk>(walk: T, links: number, walker: string): T {
  if (walk.links !== links) throw new Error(`${walker} found ${walk.links} of ${links} links`);
  return walk;
}

/** Interleaved warm rounds of `find`, the two floors and the scanner; every scan walk beside them. */
export function warmRounds(
  root: string,
  links: number,
  count: number,
): WalkRounds & { scanWalks: ScanWalk[] } {
  const rounds: WalkRounds & { scanWalks: ScanWalk[] } = {
    find: [],
    scan: [],
    floor: [],
    workerFloor: [],
    scanWalks: [],
  };
  for (let index = 0; index < count; index += 1) {
    const find: Walk[] = [];
    const floor: Walk[] = [];
    const workerFloor: Walk[] = [];
    const scan: ScanWalk[] = [];
    for (let walk = 0; walk < WARM_WALKS_PER_ROUND; walk += 1) {
      find.push(timeFind(root, links));
      floor.push(checked(timeFloor(root), links, 'the floor'));
      workerFloor.push(checked(timeFloor(root, true), links, 'the worker floor'));
      scan.push(checked(timeScan(root), links, 'the scan'));
    }
    rounds.find.push(sumOf(find));
    rounds.floor.push(sumOf(floor));
    rounds.workerFloor.push(sumOf(workerFloor));
    rounds.scan.push(sumOf(scan));
    rounds.scanWalks.push(...scan);
  }
  return rounds;
}

/** Interleaved cold rounds of `find` and the scanner, the page cache emptied before each walk. */
export function coldRounds(root: string, links: number, count: number): WalkRounds {
  const find: Walk[] = [];
  const scan: Walk[] = [];
  for (let index = 0; index < count; index += 1) {
    if (!dropCaches()) break;
    find.push(timeFind(root, links));
    dropCaches();
    scan.push(checked(timeScan(root), links, 'the scan'));
  }
  return { find, scan, floor: [], workerFloor: [] };
}
