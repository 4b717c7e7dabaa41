/**
 * Prometheus exposition: host CPU per scrape of `/metrics/prometheus` on the real host with every
 * plugin, with 50 and with 1,000 supervised processes (`sleep`, so a thousand fit in memory), as
 * the median of several rounds of scrapes with their spread (figures whose spread exceeds their
 * margin to the goal are noise-bound, not judged); the body size; how long a scrape holds the
 * event loop; and the floor of the render: a bare prom-client registry holding the same series,
 * rendered in this process in the same run.
 *
 * How long the loop is held is read inside the host by a probe turning a 1 ms timer, in three
 * windows of back-to-back scrapes alternating with three quiet windows. The judged figure is the
 * most CPU the host's main thread used between two turns of that timer (its thread CPU clock):
 * the loop's own block. The wall delay between turns (`monitorEventLoopDelay`) is beside it as
 * information, with the same host without scrapes and a bare node process in the same windows
 * (the machine's floor): on a shared 2-core machine, while the bench's client and the host keep
 * both cores busy, a bare node process doing nothing is delayed more than 5 ms itself, so the wall
 * delay measures the machine, not the scrape. The process-wide CPU between turns is beside it
 * too: it also counts V8's helper threads and the thread pool, which do not hold the loop.
 * Goals: < 2 ms per scrape at 50, < 20 ms and < 1 MiB at 1,000, no block of 5 ms (the main
 * thread's CPU between turns, median of the windows' maxima, judged when its spread is below its
 * margin to 5 ms).
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { processBlocks, stopHost } from './lib/host.js';
import { startHost, type RunningHostProcess } from '../test/helpers/start-host.js';
import { cpuMs } from './lib/proc-sample.js';
import { figure, type Figure } from './lib/report.js';
import { rounds, stableFigure, type Rounds } from './lib/stable.js';
import { round } from './lib/stats.js';
import { loopProbeEnv } from './lib/loop-window.js';
import {
  blockCpuFigure,
  blockFigure,
  blockThreadCpuFigure,
  loopWindows,
  machineFigure,
  quietFigure,
  type LoopWindows,
} from './prometheus-loop.js';
import { floorPerRender } from './prometheus-floor.js';
import { eventually } from '../test/helpers/eventually.js';

const SLEEP = ['sleep', '1000000'] as const;

async function scrapeOnce(host: RunningHostProcess): Promise<string> {
  const response = await fetch(`${host.url}/metrics/prometheus`);
  return response.text();
}

/** The host's CPU per ms of wall time with nothing asked of it (its own timers). */
async function idleRate(pid: number): Promise<number> {
  const before = cpuMs(pid);
  const started = performance.now();
  await sleep(3000);
  return (cpuMs(pid) - before) / (performance.now() - started);
}

/** Host CPU per scrape in each round of back-to-back scrapes, its idle CPU taken out. */
async function cpuPerScrape(
  host: RunningHostProcess,
  plan: { rounds: number; scrapes: number },
): Promise<Rounds> {
  const pid = host.child.pid ?? 0;
  for (let i = 0; i < 10; i += 1) await scrapeOnce(host);
  const idle = await idleRate(pid);
  const perScrape: number[] = [];
  for (let index = 0; index < plan.rounds; index += 1) {
    const before = cpuMs(pid);
    const started = performance.now();
    for (let i = 0; i < plan.scrapes; i += 1) await scrapeOnce(host);
    const busy = cpuMs(pid) - before - idle * (performance.now() - started);
    perScrape.push(Math.max(0, busy) / plan.scrapes);
  }
  return rounds(perScrape);
}

interface Measured {
  readonly processes: number;
  readonly cpu: Rounds;
  readonly floor: Rounds;
  readonly bytes: number;
  readonly loop: LoopWindows;
  readonly load: readonly number[];
}

async function measure(
  count: number,
  plan: { rounds: number; scrapes: number },
): Promise<Measured> {
  const probe = loopProbeEnv();
  // Starting a thousand processes holds the boot up on a loaded machine: a long boot timeout.
  const host = await startHost({
    config: {
      stackd: { api_service: { enabled: true, process_name: 'stackd API' } },
      ...processBlocks(count, { enabled: true, command: SLEEP }),
    },
    env: { STACKD_VALIDATE_RESPONSES: '0', ...probe.env },
    bootTimeoutMs: 300_000,
  });
  try {
    await eventually(
      async () =>
        ((await scrapeOnce(host)).match(/^stackd_process_up\{.*\} 1$/gm) ?? []).length >= count,
      { what: `${count} processes running`, timeoutMs: 300_000, intervalMs: 1000 },
    );
    const body = await scrapeOnce(host);
    const cpu = await cpuPerScrape(host, plan);
    const loop = await loopWindows(probe.dir, async () => {
      for (let i = 0; i < plan.scrapes * 2; i += 1) await scrapeOnce(host);
    });
    const floor = await floorPerRender(body, { rounds: plan.rounds, renders: plan.scrapes });
    return {
      processes: count,
      cpu,
      floor,
      bytes: Buffer.byteLength(body),
      loop,
      load: loadavg().map((value) => round(value, 1)),
    };
  } finally {
    await stopHost(host);
    rmSync(probe.dir, { recursive: true, force: true });
  }
}

function floorFigure(area: string, measured: Measured): Figure {
  const { floor, processes } = measured;
  return figure(
    area,
    `bare prom-client render, same series (floor), ${processes.toLocaleString('en-US')}`,
    round(floor.median, 3),
    'ms',
    { note: `spread ${round(floor.spread * 100, 1)} % over ${floor.values.length} rounds` },
  );
}

export async function prometheusBench(
  quick: boolean,
): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const area = 'prometheus';
  // /proc counts CPU in 10 ms ticks: a round must cost the host a few hundred ms of CPU, or the
  // tick alone spreads the rounds past any margin (40 scrapes of ~1 ms at 50 processes were four
  // ticks: spread 250 %, no verdict, on a quiet machine).
  const small = await measure(50, quick ? { rounds: 5, scrapes: 40 } : { rounds: 7, scrapes: 300 });
  const large = await measure(1000, quick ? { rounds: 5, scrapes: 5 } : { rounds: 5, scrapes: 40 });
  return {
    figures: [
      stableFigure(area, 'host CPU per scrape, 50 processes, every plugin', small.cpu, 'ms', {
        op: '<',
        limit: 2,
      }),
      floorFigure(area, small),
      stableFigure(area, 'host CPU per scrape, 1,000 processes', large.cpu, 'ms', {
        op: '<',
        limit: 20,
      }),
      floorFigure(area, large),
      figure(area, 'body, 1,000 processes', round(large.bytes / 1024), 'KiB', {
        goal: { op: '<', limit: 1024 },
      }),
      blockThreadCpuFigure(area, small.processes, small.loop),
      blockCpuFigure(area, small.processes, small.loop),
      blockFigure(area, small.processes, small.loop),
      quietFigure(area, small.processes, small.loop),
      machineFigure(area, small.processes, small.loop),
      blockThreadCpuFigure(area, large.processes, large.loop),
      blockCpuFigure(area, large.processes, large.loop),
      blockFigure(area, large.processes, large.loop),
      quietFigure(area, large.processes, large.loop),
      machineFigure(area, large.processes, large.loop),
      figure(area, 'load average (1 min) at the end, 1,000 processes', large.load[0] ?? 0, '', {
        note: 'the machine is shared: CPU per scrape rises with its load',
      }),
    ],
    details: { small, large },
  };
}
