/**
 * Event-loop delay of a benchmarked host, measured inside it: preloaded with `node --import`
 * when `STACKD_BENCH_LOOP_DIR` names a folder, it runs `perf_hooks.monitorEventLoopDelay` between
 * a `start` and a `stop` the bench writes to `<dir>/command`, and answers the stop with
 * `<dir>/result-<n>.json`. The 1 ms timer only runs while a window is measured, so it does not
 * add to the CPU the bench reads per operation at other times.
 */
import { readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { threadCpuClock, type ThreadCpuClock } from './thread-cpu.js';

/** What one measured window saw (milliseconds). */
export interface LoopDelay {
  /** Longest interval between two 1 ms timer turns: the longest block, plus up to 1 ms. */
  readonly max_ms: number;
  readonly p99_ms: number;
  readonly mean_ms: number;
  readonly samples: number;
  /**
   * The most CPU time the host's process used between two turns of the probe's own 1 ms timer:
   * the longest block as the host's work alone, without the time a runnable process waits for a
   * core on a loaded machine (which `max_ms` includes). Process-wide, so a GC helper or the
   * thread pool working meanwhile counts too: an upper bound of the main thread's part.
   */
  readonly max_cpu_ms: number;
  /**
   * The most CPU time the host's main thread alone used between two turns of the timer (its
   * thread CPU clock): the longest block of the event loop itself, without waiting for a core and
   * without the other threads' work that `max_cpu_ms` counts.
   */
  readonly max_thread_cpu_ms: number;
}

/** The CPU time between turns of a 1 ms timer while enabled: the process's, the main thread's. */
class CpuBetweenTurns {
  private timer: NodeJS.Timeout | undefined;
  private last = 0;
  private lastThread = 0;
  max = 0;
  maxThread = 0;

  constructor(private readonly threadCpu: ThreadCpuClock) {}

  enable(): void {
    this.max = 0;
    this.maxThread = 0;
    this.last = cpuMs();
    this.lastThread = this.threadCpu();
    this.timer = setInterval(() => this.turn(), 1);
  }

  disable(): void {
    clearInterval(this.timer);
    this.turn();
  }

  private turn(): void {
    const thread = this.threadCpu();
    const now = cpuMs();
    this.maxThread = Math.max(this.maxThread, thread - this.lastThread);
    this.max = Math.max(this.max, now - this.last);
    this.lastThread = thread;
    this.last = now;
  }
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

const dir = process.env.STACKD_BENCH_LOOP_DIR;
if (dir !== undefined && dir !== '') {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const cpu = new CpuBetweenTurns(await threadCpuClock());
  let handled = '';
  const onCommand = (): void => {
    let command: string;
    try {
      command = readFileSync(join(dir, 'command'), 'utf8').trim();
    } catch {
      return;
    }
    if (command === handled) return;
    handled = command;
    const [verb, id = '0'] = command.split(' ');
    if (verb === 'start') {
      histogram.reset();
      histogram.enable();
      cpu.enable();
      writeAtomically(join(dir, `started-${id}`), '');
    } else if (verb === 'stop') {
      histogram.disable();
      cpu.disable();
      const result: LoopDelay = {
        max_ms: histogram.max / 1e6,
        p99_ms: histogram.percentile(99) / 1e6,
        mean_ms: histogram.mean / 1e6,
        samples: histogram.count,
        max_cpu_ms: cpu.max,
        max_thread_cpu_ms: cpu.maxThread,
      };
      writeAtomically(join(dir, `result-${id}.json`), JSON.stringify(result));
    }
  };
  watch(dir, (_event, name) => {
    if (name === 'command') onCommand();
  }).unref();
}

function writeAtomically(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}
