/**
 * Supervision: start N trivial processes and see all running, restart all, then the supervisor's
 * RSS and CPU with the N processes up — stackd against pm2 (its daemon; PM2_HOME in a temp
 * dir) and a bare child_process.spawn loop (the floor). CPU is sampled twice: in the window right
 * after the restart wave (a fresh process still pays one-time costs there: first metrics and
 * history ticks, lazy compilation), and once more after a quiet spell — the idle figure, with
 * the goal. Runs are interleaved per round (floor, stackd, pm2, …); medians are compared.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_DIR } from './lib/children.js';
import { IDLE_COMMAND } from './lib/host.js';
import { isAlive, rssKiB, sampleIdle, settle } from './lib/proc-sample.js';
import { figure, type Figure } from './lib/report.js';
import { median, ratio, round } from './lib/stats.js';
import { agentSubject } from './supervision/agent-subject.js';
import { stackdSubject } from './supervision/stackd-subject.js';
import type { Subject } from './supervision/subject.js';

/** Settings of the supervision benchmark. */
export interface SupervisionBenchOptions {
  readonly rounds: number;
  readonly count: number;
  readonly idleMs: number;
  /** The quiet spell between the window after the wave and the idle sample. */
  readonly quietMs: number;
  /** Also run stackd with only the supervisor plugin (what the other plugins cost). */
  readonly supervisorOnly: boolean;
}

/** One variant's measurements in one round. */
interface Run {
  readonly start_ms: number;
  readonly restart_ms: number;
  readonly rss_before_mib: number;
  readonly rss_mib: number;
  readonly anon_mib: number;
  /** CPU in the `idleMs` right after the restart wave. */
  readonly after_wave_cpu_percent: number;
  /** CPU in `idleMs` after a further `quietMs`. */
  readonly idle_cpu_percent: number;
}

interface Variant {
  readonly key: string;
  make(): Promise<{ subject: Subject; cleanup?: () => void }>;
}

function variants(options: SupervisionBenchOptions): Variant[] {
  const { count } = options;
  const list: Variant[] = [
    {
      key: 'floor',
      make: async () => ({
        subject: await agentSubject(
          'spawn loop',
          join(BENCH_DIR, 'supervision', 'spawn-floor.js'),
          count,
          IDLE_COMMAND,
        ),
      }),
    },
    {
      key: 'stackd',
      make: async () => ({ subject: await stackdSubject('stackd', count, IDLE_COMMAND) }),
    },
    {
      key: 'pm2',
      make: async () => {
        const home = mkdtempSync(join(tmpdir(), 'stackd-bench-pm2-'));
        const subject = await agentSubject(
          'pm2 daemon',
          join(BENCH_DIR, 'supervision', 'pm2-agent.js'),
          count,
          IDLE_COMMAND,
          { ...process.env, PM2_HOME: home },
        );
        return { subject, cleanup: () => rmSync(home, { recursive: true, force: true }) };
      },
    },
  ];
  if (options.supervisorOnly)
    list.push({
      key: 'stackd_supervisor_only',
      make: async () => ({
        subject: await stackdSubject('stackd (supervisor only)', count, IDLE_COMMAND, [
          'supervisor',
        ]),
      }),
    });
  return list;
}

async function measure(subject: Subject, options: SupervisionBenchOptions): Promise<Run> {
  const rssBefore = rssKiB(subject.supervisorPid);
  const start = await subject.startAll();
  if (start.pids.length !== options.count) throw new Error(`${subject.label}: not all started`);
  await settle(start.pids);
  const restart = await subject.restartAll();
  if (restart.pids.length !== options.count) throw new Error(`${subject.label}: not all restarted`);
  await settle(restart.pids);
  const afterWave = await sampleIdle(subject.supervisorPid, options.idleMs);
  await new Promise((resolve) => setTimeout(resolve, options.quietMs));
  const idle = await sampleIdle(subject.supervisorPid, options.idleMs);
  if (!restart.pids.every(isAlive)) throw new Error(`${subject.label}: a process died while idle`);
  return {
    start_ms: round(start.ms, 1),
    restart_ms: round(restart.ms, 1),
    rss_before_mib: round(rssBefore / 1024, 1),
    rss_mib: afterWave.rss_mib,
    anon_mib: afterWave.anon_mib,
    after_wave_cpu_percent: afterWave.cpu_percent,
    idle_cpu_percent: idle.cpu_percent,
  };
}

/** Run the supervision benchmark. */
export async function supervisionBench(
  options: SupervisionBenchOptions,
): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const runs: Record<string, Run[]> = {};
  const list = variants(options);
  for (let roundIndex = 0; roundIndex < options.rounds; roundIndex += 1)
    for (const variant of list) {
      const { subject, cleanup } = await variant.make();
      try {
        (runs[variant.key] ??= []).push(await measure(subject, options));
      } finally {
        await subject.close();
        cleanup?.();
      }
    }
  return { figures: supervisionFigures(runs, options), details: { options, runs } };
}

function supervisionFigures(
  runs: Record<string, Run[]>,
  options: SupervisionBenchOptions,
): Figure[] {
  const of = (key: string, field: keyof Run): number =>
    median((runs[key] ?? []).map((run) => run[field]));
  const n = options.count;
  const area = `Supervision (${n} processes)`;
  const labels: Record<string, string> = {
    floor: 'spawn loop',
    stackd: 'stackd',
    pm2: 'pm2',
    stackd_supervisor_only: 'stackd --plugins supervisor',
  };
  const figures: Figure[] = [];
  const keys = Object.keys(runs);
  for (const key of keys)
    figures.push(
      figure(area, `start ${n}: ${labels[key] ?? key}`, round(of(key, 'start_ms'), 1), 'ms'),
    );
  figures.push(
    figure(
      area,
      `start ${n}: stackd / spawn loop`,
      ratio(of('stackd', 'start_ms'), of('floor', 'start_ms')),
      '×',
      {
        goal: { op: '<=', limit: 1.5 },
      },
    ),
    figure(
      area,
      `start ${n}: stackd / pm2`,
      ratio(of('stackd', 'start_ms'), of('pm2', 'start_ms')),
      '×',
      {
        goal: { op: '<', limit: 1 },
      },
    ),
  );
  for (const key of keys)
    figures.push(
      figure(area, `restart all: ${labels[key] ?? key}`, round(of(key, 'restart_ms'), 1), 'ms'),
    );
  for (const key of keys)
    figures.push(
      figure(
        area,
        `RSS: ${labels[key] ?? key}${key === 'pm2' ? ' (daemon)' : ''}`,
        of(key, 'rss_mib'),
        'MiB',
      ),
    );
  figures.push(
    figure(
      area,
      'RSS: stackd / pm2 daemon',
      ratio(of('stackd', 'rss_mib'), of('pm2', 'rss_mib')),
      '×',
      {
        goal: { op: '<=', limit: 1 },
      },
    ),
    figure(
      area,
      'RSS: stackd / spawn loop',
      ratio(of('stackd', 'rss_mib'), of('floor', 'rss_mib')),
      '×',
      {
        goal: { op: '<=', limit: 1.3 },
      },
    ),
  );
  for (const key of keys)
    figures.push(
      figure(area, `private memory (RssAnon): ${labels[key] ?? key}`, of(key, 'anon_mib'), 'MiB'),
    );
  for (const key of keys)
    figures.push(
      figure(
        area,
        `CPU right after the restart wave: ${labels[key] ?? key}`,
        round(of(key, 'after_wave_cpu_percent'), 2),
        '%',
      ),
    );
  for (const key of keys)
    figures.push(
      figure(area, `idle CPU: ${labels[key] ?? key}`, round(of(key, 'idle_cpu_percent'), 2), '%', {
        ...(key === 'stackd' ? { goal: { op: '<', limit: 0.3 } } : {}),
      }),
    );
  return figures;
}
