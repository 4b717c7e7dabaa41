/**
 * Symlink scan (issue 14 goals): a tree of N links (half broken) scanned by the plugin's
 * scanner against `find ROOT -type l -printf '%p\t%l\n'`, warm (and cold when the page cache can
 * be dropped, which needs root); the host's /health latency probed every 10 ms from a child
 * process (health-probe-child.ts) during a dry-run repair of that tree (the event loop must not
 * stall > 20 ms) and the repair's time (< 3 s); RSS growth of a scan of 1,000,000 links
 * (< 100 MiB).
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
import { median } from './lib/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const PER_DIR = 1000;

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

function timeFind(root: string): number {
  const started = performance.now();
  const result = spawnSync('find', [join(root, 'library'), '-type', 'l', '-printf', '%p\t%l\n'], {
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  if (result.status !== 0) throw new Error('find failed');
  return performance.now() - started;
}

function timeScan(root: string): {
  links: number;
  ms: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
} {
  const result = spawnSync(
    process.execPath,
    [join(here, 'symlinks-scan-child.js'), join(root, 'library'), '0'],
    {
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) throw new Error(`scan child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as {
    links: number;
    ms: number;
    rssBeforeMiB: number;
    rssPeakMiB: number;
  };
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

export async function symlinksBench(options: { links: number; bigLinks: number }): Promise<{
  figures: Figure[];
  details: Record<string, unknown>;
}> {
  const root = buildTree(options.links);
  try {
    timeFind(root);
    const findWarm = Math.min(timeFind(root), timeFind(root));
    const scanWarm = Math.min(timeScan(root).ms, timeScan(root).ms);
    let coldRatio: number | null = null;
    const coldFind: number[] = [];
    const coldScan: number[] = [];
    // Cold runs vary with the disk more than warm ones: three interleaved rounds, medians.
    for (let round = 0; round < 3 && dropCaches(); round += 1) {
      coldFind.push(timeFind(root));
      dropCaches();
      coldScan.push(timeScan(root).ms);
    }
    if (coldFind.length === 3) coldRatio = median(coldFind) / median(coldScan);
    const repair = await probeDuringRepair(root);
    const figures: Figure[] = [
      figure(
        'symlinks',
        `scan ${options.links} links vs find, warm (×)`,
        findWarm / scanWarm,
        '×',
        {
          goal: { op: '>=', limit: 1.0 },
        },
      ),
      figure('symlinks', 'max /health latency during a dry-run repair', repair.maxProbeMs, 'ms', {
        goal: { op: '<=', limit: 20 },
      }),
      figure('symlinks', `dry-run repair of ${options.links} links`, repair.repairMs / 1000, 's', {
        goal: { op: '<', limit: 3 },
      }),
    ];
    if (coldRatio !== null)
      figures.push(
        figure('symlinks', 'scan vs find, cold (×)', coldRatio, '×', {
          goal: { op: '>=', limit: 1.5 },
        }),
      );
    const details: Record<string, unknown> = {
      findWarmMs: findWarm,
      scanWarmMs: scanWarm,
      coldRatio,
      coldFindMs: coldFind,
      coldScanMs: coldScan,
      repair,
    };
    rmSync(root, { recursive: true, force: true });
    const big = buildTree(options.bigLinks);
    try {
      const scan = timeScan(big);
      figures.push(
        figure(
          'symlinks',
          `RSS growth scanning ${options.bigLinks} links`,
          scan.rssPeakMiB - scan.rssBeforeMiB,
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
