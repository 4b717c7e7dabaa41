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

/** What one measured window saw (milliseconds). */
export interface LoopDelay {
  /** Longest interval between two 1 ms timer turns: the longest block, plus up to 1 ms. */
  readonly max_ms: number;
  readonly p99_ms: number;
  readonly mean_ms: number;
  readonly samples: number;
}

const dir = process.env.STACKD_BENCH_LOOP_DIR;
if (dir !== undefined && dir !== '') {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
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
      writeAtomically(join(dir, `started-${id}`), '');
    } else if (verb === 'stop') {
      histogram.disable();
      const result: LoopDelay = {
        max_ms: histogram.max / 1e6,
        p99_ms: histogram.percentile(99) / 1e6,
        mean_ms: histogram.mean / 1e6,
        samples: histogram.count,
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
