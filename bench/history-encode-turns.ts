/**
 * `node --semi-space-growth-factor=1 --no-parallel-scavenge dist/bench/history-encode-turns.js
 * [PROCESSES] [ROUNDS]`: the metrics history step alone, in this process, with the host's V8
 * flags. Per round it encodes one snapshot of PROCESSES (default 1,000) processes in one go (the
 * old path: one JSON.stringify and a synchronous deflate) and then in turns of the event loop (the
 * host's path), while a 0 ms timer measures the longest gap between its turns, both in this
 * process's CPU time. Prints, as JSON
 * with the load average, the median and the minimum over ROUNDS (default 40) of both: the one-go
 * time is how long the old step held the loop, the longest gap how long the new one does. The
 * minimum is the figure least disturbed by other programs on a shared machine.
 */
import { loadavg } from 'node:os';
import {
  encodeSnapshot,
  encodeSnapshotInTurns,
} from '../plugins/metrics/history/snapshot-encoding.js';
import { snapshotAt } from '../test/plugins/metrics/snapshot-factory.js';
import { median, round } from './lib/stats.js';

/**
 * This process's CPU time (ms). Gaps are measured in CPU, not wall time: on a shared machine a
 * runnable process waits for a core for several ms, which says nothing about how long the
 * work between two turns is. The scavenger runs on the main thread with --no-parallel-scavenge;
 * the deflate of the turns' path runs on the thread pool and counts in its gaps too, so that
 * figure is an upper bound.
 */
function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

const count = Number(process.argv[2] ?? 1000);
const roundsWanted = Number(process.argv[3] ?? 40);

const processes: Record<string, { cpu: number; rss: number }> = {};
for (let index = 0; index < count; index += 1)
  processes[`Bench ${index}`] = { cpu: index / 7, rss: 1e6 + index * 4096 };
const snapshot = snapshotAt(Date.now(), { processes });

/** The longest gap between turns of a 0 ms timer while `work` runs (ms). */
async function longestGap(work: () => Promise<unknown>): Promise<number> {
  let last = cpuNow();
  let longest = 0;
  let running = true;
  const tick = (): void => {
    const now = cpuNow();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  await work();
  running = false;
  return longest;
}

for (let index = 0; index < 5; index += 1) {
  encodeSnapshot(snapshot);
  await encodeSnapshotInTurns(snapshot);
}
const oneGo: number[] = [];
const inTurns: number[] = [];
for (let index = 0; index < roundsWanted; index += 1) {
  const started = cpuNow();
  encodeSnapshot(snapshot);
  oneGo.push(cpuNow() - started);
  inTurns.push(await longestGap(() => encodeSnapshotInTurns(snapshot)));
}
const summary = (values: number[]) => ({
  median_ms: round(median(values), 2),
  min_ms: round(Math.min(...values), 2),
});
console.log(
  JSON.stringify({
    processes: count,
    json_bytes: JSON.stringify(snapshot).length,
    one_go: summary(oneGo),
    in_turns_longest_gap: summary(inTurns),
    load: loadavg().map((value) => round(value, 1)),
  }),
);
