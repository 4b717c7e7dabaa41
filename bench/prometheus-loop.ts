/**
 * How long scrapes hold the host's event loop (see prometheus.bench.ts): windows of back-to-back
 * scrapes alternating with quiet ones, read by the loop probe inside the host and by a bare node
 * process beside it, and the figures made of them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { figure, type Figure } from './lib/report.js';
import { rounds, type Rounds } from './lib/stable.js';
import { round } from './lib/stats.js';
import { loopDelayDuring, startBareProbe } from './lib/loop-window.js';
import type { LoopDelay } from './lib/loop-probe.js';

const BLOCK_LIMIT_MS = 5;

/** Event-loop delay windows, alternating: during back-to-back scrapes, then without any. */
export interface LoopWindows {
  /** The longest delay of each window. */
  readonly scraping: Rounds;
  readonly quiet: Rounds;
  /** The most CPU the host used between two timer turns, per window (see LoopDelay). */
  readonly scrapingCpu: Rounds;
  readonly quietCpu: Rounds;
  /** The most CPU the host's main thread alone used between two timer turns, per window. */
  readonly scrapingThreadCpu: Rounds;
  readonly quietThreadCpu: Rounds;
  /** A bare node process's longest delay in the same scrape windows (the machine's floor). */
  readonly machine: Rounds;
  readonly windows: readonly {
    readonly scraping: LoopDelay;
    readonly quiet: LoopDelay;
    readonly machine: LoopDelay;
  }[];
}

/**
 * One window's maximum swings with whatever else the shared machine runs at that moment (a
 * single window read 5.24 ms one run and under 5 the next): several windows of each kind, so
 * the figure is a median with its spread, judged only when the spread is below its margin.
 */
const LOOP_WINDOWS = 3;
const QUIET_WINDOW_MS = 3000;

export async function loopWindows(dir: string, scrapes: () => Promise<void>): Promise<LoopWindows> {
  const windows: { scraping: LoopDelay; quiet: LoopDelay; machine: LoopDelay }[] = [];
  const bare = await startBareProbe();
  try {
    for (let index = 0; index < LOOP_WINDOWS; index += 1) {
      let scrapesDone = (): void => undefined;
      const done = new Promise<void>((resolve) => (scrapesDone = resolve));
      const [scraping, machine] = await Promise.all([
        loopDelayDuring(dir, () => scrapes().finally(scrapesDone)),
        loopDelayDuring(bare.dir, () => done),
      ]);
      const quiet = await loopDelayDuring(dir, () => sleep(QUIET_WINDOW_MS));
      windows.push({ scraping, quiet, machine });
    }
  } finally {
    bare.stop();
  }
  return {
    scraping: rounds(windows.map((window) => round(window.scraping.max_ms, 2))),
    quiet: rounds(windows.map((window) => round(window.quiet.max_ms, 2))),
    scrapingCpu: rounds(windows.map((window) => round(window.scraping.max_cpu_ms, 2))),
    quietCpu: rounds(windows.map((window) => round(window.quiet.max_cpu_ms, 2))),
    scrapingThreadCpu: rounds(windows.map((window) => round(window.scraping.max_thread_cpu_ms, 2))),
    quietThreadCpu: rounds(windows.map((window) => round(window.quiet.max_thread_cpu_ms, 2))),
    machine: rounds(windows.map((window) => round(window.machine.max_ms, 2))),
    windows,
  };
}

/**
 * The longest wall delay during scrapes (median of the windows' maxima): information beside the
 * judged CPU figure, since it includes the time the host waits for a core on a shared machine.
 */
export function blockFigure(area: string, processes: number, loop: LoopWindows): Figure {
  const { scraping, quiet, windows } = loop;
  const turns = windows.reduce((sum, window) => sum + window.scraping.samples, 0);
  return figure(
    area,
    `longest event-loop delay during scrapes (wall), ${processes.toLocaleString('en-US')} processes`,
    round(scraping.median),
    'ms',
    {
      note: `median of ${windows.length} windows' maxima (${scraping.values.join(', ')} ms), spread ${round(scraping.spread * 100, 1)} %; ${turns} turns of a 1 ms timer (the delay includes that 1 ms); without scrapes ${round(quiet.median)} ms, a bare node process ${round(loop.machine.median)} ms`,
    },
  );
}

/** The same host over as long without scrapes: what its own timers and the machine cost. */
export function quietFigure(area: string, processes: number, loop: LoopWindows): Figure {
  const { quiet } = loop;
  return figure(
    area,
    `longest event-loop delay without scrapes (same host, floor), ${processes.toLocaleString('en-US')} processes`,
    round(quiet.median),
    'ms',
    {
      note: `median of ${quiet.values.length} windows of ${QUIET_WINDOW_MS / 1000} s (${quiet.values.join(', ')} ms), spread ${round(quiet.spread * 100, 1)} %`,
    },
  );
}

/**
 * The judged figure: the most CPU time the host's main thread used between two turns of a 1 ms
 * timer during scrapes, the worst of every window. It is the loop's own block: what a request, a
 * stream or a timer waits for because the loop is busy, without the time the host waits for a
 * core (which the wall delay includes and which no program controls on a shared machine), and
 * without the work of other threads (GC helpers, the thread pool), which runs beside the loop
 * rather than holding it. The goal says "never", so the verdict reads the worst turn seen in all
 * windows, not a median: it is an observation, not an estimate, and needs no spread rule (a
 * median judged by spread gave no verdict whenever one window's worst turn was 3–4 ms).
 */
export function blockThreadCpuFigure(area: string, processes: number, loop: LoopWindows): Figure {
  const { scrapingThreadCpu, quietThreadCpu } = loop;
  const worst = Math.max(...scrapingThreadCpu.values);
  return figure(
    area,
    `longest main-thread CPU between loop turns during scrapes, ${processes.toLocaleString('en-US')} processes`,
    round(worst),
    'ms',
    {
      goal: { op: '<', limit: BLOCK_LIMIT_MS },
      note: `worst of ${scrapingThreadCpu.values.length} windows' maxima (${scrapingThreadCpu.values.join(', ')} ms); the host's main thread's CPU clock between two turns of a 1 ms timer; without scrapes ${round(quietThreadCpu.median)} ms (${quietThreadCpu.values.join(', ')})`,
    },
  );
}

/**
 * The same as CPU of the whole host process (every thread): information. V8's helper threads
 * and the thread pool add to it while they work beside the loop, so it overstates the block.
 */
export function blockCpuFigure(area: string, processes: number, loop: LoopWindows): Figure {
  const { scrapingCpu, quietCpu } = loop;
  return figure(
    area,
    `longest process CPU (every thread) between loop turns during scrapes, ${processes.toLocaleString('en-US')} processes`,
    round(scrapingCpu.median),
    'ms',
    {
      note: `median of ${scrapingCpu.values.length} windows (${scrapingCpu.values.join(', ')} ms), the host process's CPU between two turns of a 1 ms timer; without scrapes ${round(quietCpu.median)} ms (${quietCpu.values.join(', ')})`,
    },
  );
}

/**
 * The machine's floor: a bare node process with only the probe's 1 ms timer, in the same scrape
 * windows. No host can turn its loop more promptly than this on the machine at that moment.
 */
export function machineFigure(area: string, processes: number, loop: LoopWindows): Figure {
  const { machine } = loop;
  return figure(
    area,
    `longest event-loop delay of a bare node process in the same windows (machine floor), ${processes.toLocaleString('en-US')}`,
    round(machine.median),
    'ms',
    { note: `median of ${machine.values.length} windows (${machine.values.join(', ')} ms)` },
  );
}
