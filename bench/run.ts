/**
 * `npm run bench [-- --quick] [-- --only http,supervision,logs,streams,graph,metrics,sync,prometheus,journal,symlinks,scale,churn,cli,adoption]`
 *
 * Measures stackd against what its users would otherwise pick, in one run on one machine, and
 * prints ratios (absolute numbers on a shared machine mean little). Writes a Markdown table to
 * stdout and everything measured to bench/results.json (`--out FILE` to change). `--quick` is
 * the CI-style smoke run (under 2 minutes): fewer and shorter rounds.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { adoptionBench } from './adoption.bench.js';
import { churnBench } from './churn.bench.js';
import { cliBench } from './cli.bench.js';
import { graphBench, metricsBench } from './external.bench.js';
import { httpBench } from './http.bench.js';
import { journalBench } from './journal.bench.js';
import { stopAll } from './lib/cleanup.js';
import { loadTool } from './lib/load.js';
import { settleNodeStartEnv } from './lib/node-start-env.js';
import { markdownTable, type Figure } from './lib/report.js';
import { logsBench } from './logs.bench.js';
import { prometheusBench } from './prometheus.bench.js';
import { streamsBench } from './streams.bench.js';
import { scaleBench, scaleOptions } from './scale.bench.js';
import { supervisionBench } from './supervision.bench.js';
import { symlinksBench } from './symlinks.bench.js';
import { syncBench } from './sync.bench.js';

type AreaResult = { figures: Figure[]; details: Record<string, unknown> };

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    out: { type: 'string', default: 'bench/results.json' },
  },
});
const quick = values.quick;

const AREAS: Record<string, () => Promise<AreaResult>> = {
  http: () =>
    httpBench({
      rounds: quick ? 1 : 3,
      seconds: quick ? 2 : 10,
      warmupSeconds: quick ? 1 : 3,
      connections: 100,
      processes: 20,
    }),
  supervision: () =>
    supervisionBench({
      rounds: quick ? 1 : 3,
      count: 50,
      idleMs: quick ? 3000 : 10_000,
      quietMs: quick ? 3000 : 15_000,
      supervisorOnly: !quick,
    }),
  logs: () => logsBench({ fileMiB: 1024, requests: quick ? 50 : 300 }),
  streams: () => streamsBench({ clients: 100, lines: quick ? 20 : 100, intervalMs: 100 }),
  graph: () => graphBench(),
  metrics: () => metricsBench(quick),
  sync: () => syncBench(),
  prometheus: () => prometheusBench(quick),
  journal: () =>
    journalBench({
      clients: 100,
      seconds: quick ? 3 : 10,
      replay: quick ? 20_000 : 100_000,
      rounds: quick ? 2 : 3,
    }),
  symlinks: () =>
    symlinksBench({ links: quick ? 20_000 : 200_000, bigLinks: quick ? 50_000 : 1_000_000 }),
  cli: () =>
    cliBench({ processes: 50, rounds: quick ? 9 : 31, rate: 10_000, seconds: quick ? 2 : 5 }),
  scale: () =>
    scaleBench(
      scaleOptions({
        sizes: quick ? [10, 50] : [10, 50, 200, 1000],
        idleMs: quick ? 10_000 : 30_000,
        warmupMs: quick ? 3000 : 15_000,
        supervisors: ['stackd', 'pm2', 'supervisord', 'floor'],
        rounds: quick ? 3 : 5,
        outDir: 'bench/results',
      }),
    ),
  churn: () =>
    churnBench({ minutes: quick ? 2 : 10, warmupMs: quick ? 20_000 : 60_000, processes: 50 }),
  adoption: () => adoptionBench({ rounds: quick ? 1 : 3, processes: 50, gapMs: 5_000 }),
};

const selected = values.only?.split(',').map((name) => name.trim()) ?? Object.keys(AREAS);
for (const name of selected) if (!(name in AREAS)) throw new Error(`unknown area ${name}`);

const started = performance.now();
const loadBefore = loadavg();
// Before any area spawns anything: what this shell's environment adds to every Node start.
const figures: Figure[] = [...settleNodeStartEnv()];
const details: Record<string, unknown> = {};
const errors: Record<string, string> = {};
let leftovers: string[] = [];
try {
  for (const name of selected) {
    const area = AREAS[name];
    if (area === undefined) continue;
    const areaStart = performance.now();
    process.stderr.write(`bench: ${name}…\n`);
    try {
      const result = await area();
      figures.push(...result.figures);
      details[name] = {
        ...result.details,
        wall_s: Math.round((performance.now() - areaStart) / 100) / 10,
      };
    } catch (error) {
      errors[name] = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`bench: ${name} failed: ${errors[name]}\n`);
    }
    leftovers.push(...(await stopAll()));
  }
} finally {
  leftovers.push(...(await stopAll()));
}
leftovers = [...new Set(leftovers)];

const wallSeconds = Math.round((performance.now() - started) / 100) / 10;
const loadAfter = loadavg();
const round2 = (list: number[]): number[] => list.map((value) => Math.round(value * 100) / 100);
const results = {
  date: new Date().toISOString(),
  command: `npm run bench${quick ? ' -- --quick' : ''}`,
  quick,
  node: process.version,
  cpus: cpus().length,
  cpu_model: cpus()[0]?.model ?? 'unknown',
  load_tool: loadTool(),
  load_avg_before: round2(loadBefore),
  load_avg_after: round2(loadAfter),
  wall_s: wallSeconds,
  figures,
  goals_met: figures.filter((item) => item.pass === true).length,
  goals_short: figures
    .filter((item) => item.pass === false)
    .map((item) => `${item.area}: ${item.name}`),
  errors,
  leftover_processes_stopped: leftovers,
  details,
};
const out = resolve(values.out);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);

process.stdout.write(
  [
    `stackd benchmarks — ${results.command} — node ${process.version}, ${results.cpus} × ${results.cpu_model}`,
    `load average before ${results.load_avg_before.join(' ')}, after ${results.load_avg_after.join(' ')}; ${wallSeconds} s; load: ${results.load_tool}`,
    '',
    markdownTable(figures),
    '',
    `goals met: ${results.goals_met}, short: ${results.goals_short.length}${Object.keys(errors).length > 0 ? `, failed areas: ${Object.keys(errors).join(', ')}` : ''}`,
    `results: ${out}`,
    '',
  ].join('\n'),
);
process.exit(Object.keys(errors).length > 0 ? 1 : 0);
