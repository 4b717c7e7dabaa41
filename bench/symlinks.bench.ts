/**
 * Symlink scan (issue 14 goals): a tree of N links (half broken) scanned by the plugin's
 * scanner against `find ROOT -type l -printf '%p\t%l\n'`, warm (and cold when the page cache can
 * be dropped, which needs root); the host's /health latency probed every 10 ms from a child
 * process (health-probe-child.ts) during a dry-run repair of that tree (the event loop must not
 * stall > 20 ms) and the repair's time (< 3 s); RSS growth of a scan of 1,000,000 links
 * (< 100 MiB).
 *
 * The speed ratios swing with the machine (warm 0.97–1.26×, cold 1.18–1.60× between runs of the
 * same code), so the warm verdict reads CPU time per link instead: the scanner's user + system
 * time over its walk (every thread) against `find`'s (getrusage of the finished child, through
 * bash's `times`), in interleaved rounds. "At least as fast as `find` warm" becomes "no more CPU
 * per link than `find`": a scan that needs no more CPU than `find` keeps up with it on any
 * number of cores, however loaded. A cold scan's speed comes from overlapping the disk's waits
 * (several directories read at once), which CPU time cannot show: its verdict stays on the
 * speed ratio per round and is given only when the rounds agree closer than the margin to
 * 1.5× (otherwise noise-bound); its CPU per link is reported beside it.
 *
 * The warm rounds also run the floor of that figure (symlinks-floor-child.ts): the smallest Node
 * program doing the work a scan cannot skip, on one thread. Its CPU per link against `find`'s
 * says whether "no more CPU than `find`" is within Node's reach on this machine at all, and the
 * scanner's against the floor's what its threads and batches cost beyond that work.
 */
import { execFileSync, fork, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinPlugin } from '../test/helpers/fixture-paths.js';
import { postJson, startBenchHost, stopHost } from './lib/host.js';
import { figure, type Figure } from './lib/report.js';
import { rounds, stableFigure, type Rounds } from './lib/stable.js';
import { median, round } from './lib/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const PER_DIR = 1000;
/** Interleaved rounds of `find` and the scanner, warm and cold. */
const ROUNDS = 5;

function buildTree(links: number): string {
  const root = mkdtempSync(join(tmpdir(), 'stackd-bench-links-'));
  const targets = join(root, 'targets');
  mkdirSync(targets);
  for (let index = 0; index < 1000; index += 1) writeFileSync(join(targets, `t${index}`), '');
  for (let index = 0; index < links; index += 1) {
    const dir = join(root, 'library', `d${Math.floor(index / PER_DIR)}`);
    if (index % PER_DIR === 0) mkdirSync(dir, { recursive: true });
    // Half broken: odd links point at files that do not exist.
    const target =
      index % 2 === 0 ? join(targets, `t${index % 1000}`) : join(root, 'gone', `${index}`);
    symlinkSync(target, join(dir, `link-${index}.mkv`));
  }
  return root;
}

function dropCaches(): boolean {
  try {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}

/** A run of one walker over the tree: wall time and CPU time (user + system), in ms. */
interface Walk {
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

function timeFind(root: string, links: number): Walk {
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

/** The floor: one thread reading directories and link targets, nothing else. */
function timeFloor(root: string): Walk {
  const result = spawnSync(
    process.execPath,
    [join(here, 'symlinks-floor-child.js'), join(root, 'library')],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`floor child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Walk;
}

function timeScan(root: string): Walk & { rssBeforeMiB: number; rssPeakMiB: number } {
  const result = spawnSync(
    process.execPath,
    [join(here, 'symlinks-scan-child.js'), join(root, 'library'), '0'],
    {
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`scan child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as Walk & { rssBeforeMiB: number; rssPeakMiB: number };
}

/** The walks of interleaved rounds; `floor` only in warm rounds. */
interface WalkRounds {
  readonly find: Walk[];
  readonly scan: Walk[];
  readonly floor: Walk[];
}

/** Interleaved rounds of `find`, the floor (warm only) and the scanner (each cold when `cold`). */
function walkRounds(root: string, links: number, count: number, cold: boolean): WalkRounds {
  const find: Walk[] = [];
  const scan: Walk[] = [];
  const floor: Walk[] = [];
  for (let index = 0; index < count; index += 1) {
    if (cold && !dropCaches()) break;
    find.push(timeFind(root, links));
    if (!cold) {
      const walk = timeFloor(root);
      if (walk.links !== links) throw new Error(`the floor found ${walk.links} of ${links} links`);
      floor.push(walk);
    }
    if (cold) dropCaches();
    const walk = timeScan(root);
    if (walk.links !== links) throw new Error(`the scan found ${walk.links} of ${links} links`);
    scan.push(walk);
  }
  return { find, scan, floor };
}

interface ProbeReport {
  readonly probes: number;
  readonly maxMs: number;
  readonly p99Ms: number;
}

/** The next message from the probe child; fails if it exits first. */
async function nextMessage(child: ChildProcess): Promise<unknown> {
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the /health probe exited with ${String(code)}`);
  });
  const [message] = await Promise.race([once(child, 'message'), exited]);
  return message;
}

/** Start the /health probe child; resolves once its first probe was answered. */
async function startProbe(url: string): Promise<{ stop(): Promise<ProbeReport> }> {
  const child = fork(join(here, 'health-probe-child.js'), [url, '10'], { stdio: 'ignore' });
  if ((await nextMessage(child)) !== 'ready') throw new Error('the /health probe did not start');
  return {
    stop: async () => {
      const report = nextMessage(child);
      child.send('stop');
      return (await report) as ProbeReport;
    },
  };
}

async function probeDuringRepair(
  root: string,
): Promise<{ repairMs: number; maxProbeMs: number; p99ProbeMs: number; probes: number }> {
  const host = await startBenchHost({ stackd: { symlinks: { default_roots: [] } } }, [
    builtinPlugin('symlinks'),
  ]);
  try {
    const probe = await startProbe(host.url);
    const started = performance.now();
    const answer = await postJson(host, '/process/symlink-repair', {
      roots: [join(root, 'library')],
      rewrite_rules: [{ from_prefix: join(root, 'targets'), to_prefix: join(root, 'moved') }],
    });
    const repairMs = performance.now() - started;
    const seen = await probe.stop();
    if (answer.status !== 200) throw new Error(`repair answered ${answer.status}`);
    return { repairMs, maxProbeMs: seen.maxMs, p99ProbeMs: seen.p99Ms, probes: seen.probes };
  } finally {
    await stopHost(host);
  }
}

/** What the floor's ratio to `find` says about the warm goal. */
function floorVerdict(floorCpu: Rounds): string {
  if (floorCpu.spread >= Math.abs(1 - floorCpu.median))
    return 'the rounds do not tell whether Node can do the work on less CPU than find';
  return floorCpu.median > 1
    ? 'the floor itself needs more CPU than find: ≤ 1× is below what Node can do here'
    : 'the floor needs less CPU than find: ≤ 1× is within reach';
}

export async function symlinksBench(options: { links: number; bigLinks: number }): Promise<{
  figures: Figure[];
  details: Record<string, unknown>;
}> {
  const root = buildTree(options.links);
  try {
    timeFind(root, options.links);
    timeFloor(root);
    timeScan(root);
    const warm = walkRounds(root, options.links, ROUNDS, false);
    // Cold runs vary with the disk more than warm ones: interleaved rounds, medians.
    const cold = walkRounds(root, options.links, ROUNDS, true);
    const perLinkUs = (walk: Walk): number => (walk.cpuMs * 1000) / walk.links;
    const perRound = (
      { find, scan }: { find: Walk[]; scan: Walk[] },
      of: (findWalk: Walk, scanWalk: Walk) => number,
    ): number[] => scan.map((walk, index) => of(find[index] as Walk, walk));
    const floorRounds = { find: warm.find, scan: warm.floor };
    const overFloor = { find: warm.floor, scan: warm.scan };
    const cpuRatio = (a: Walk, b: Walk): number => perLinkUs(b) / perLinkUs(a);
    const speedRatio = (a: Walk, b: Walk): number => a.ms / b.ms;
    const repair = await probeDuringRepair(root);
    const warmCpu = rounds(perRound(warm, cpuRatio));
    const floorCpu = rounds(perRound(floorRounds, cpuRatio));
    const scanOverFloor = rounds(perRound(overFloor, cpuRatio));
    const figures: Figure[] = [
      figure(
        'symlinks',
        `scan ${options.links} links vs find, warm (speed ×)`,
        round(median(perRound(warm, speedRatio))),
        '×',
        {
          note: 'information; judged on CPU per link',
        },
      ),
      figure(
        'symlinks',
        'scanner CPU per link, warm',
        round(median(warm.scan.map(perLinkUs)), 3),
        'µs',
      ),
      figure(
        'symlinks',
        '`find` CPU per link, warm',
        round(median(warm.find.map(perLinkUs)), 3),
        'µs',
      ),
      // "≥ 1.0× find's speed" read as "≤ 1.0× find's CPU per link" (see the header).
      stableFigure('symlinks', 'scanner / find CPU per link, warm', warmCpu, '×', {
        op: '<=',
        limit: 1,
      }),
      figure(
        'symlinks',
        'floor (one thread: readdir + readlink) CPU per link, warm',
        round(median(warm.floor.map(perLinkUs)), 3),
        'µs',
      ),
      figure('symlinks', 'floor / find CPU per link, warm', round(floorCpu.median), '×', {
        note: `spread ${round(floorCpu.spread * 100, 1)} %; ${floorVerdict(floorCpu)}`,
      }),
      figure('symlinks', 'scanner / floor CPU per link, warm', round(scanOverFloor.median), '×', {
        note: `spread ${round(scanOverFloor.spread * 100, 1)} %; information: what the workers and their batches cost beyond the work`,
      }),
      figure(
        'symlinks',
        'max /health latency during a dry-run repair',
        round(repair.maxProbeMs),
        'ms',
        {
          goal: { op: '<=', limit: 20 },
        },
      ),
      figure(
        'symlinks',
        `dry-run repair of ${options.links} links`,
        round(repair.repairMs / 1000),
        's',
        {
          goal: { op: '<', limit: 3 },
        },
      ),
    ];
    if (cold.scan.length > 0)
      figures.push(
        stableFigure(
          'symlinks',
          'scan vs find, cold (speed ×)',
          rounds(perRound(cold, speedRatio)),
          '×',
          {
            op: '>=',
            limit: 1.5,
          },
        ),
        figure(
          'symlinks',
          'scanner / find CPU per link, cold',
          round(median(perRound(cold, cpuRatio))),
          '×',
          {
            note: 'information: a cold scan waits on the disk',
          },
        ),
      );
    const details: Record<string, unknown> = { warm, cold, repair, floorCpu, scanOverFloor };
    rmSync(root, { recursive: true, force: true });
    const big = buildTree(options.bigLinks);
    try {
      const scan = timeScan(big);
      figures.push(
        figure(
          'symlinks',
          `RSS growth scanning ${options.bigLinks} links`,
          round(scan.rssPeakMiB - scan.rssBeforeMiB, 1),
          'MiB',
          {
            goal: { op: '<', limit: 100 },
          },
        ),
      );
      details.bigScan = scan;
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
    return { figures, details };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
