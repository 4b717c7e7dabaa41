/**
 * Child process of the symlinks bench: scan one tree with the plugin's scanner and print
 * `{links, ms, cpuMs, rssBeforeMiB, rssPeakMiB}` — in its own process so RSS growth is the
 * scan's. `cpuMs` is the process's user + system time over the walk alone (every thread, the
 * scanner's workers included), without node's own start.
 */
import { walkLinks } from '../plugins/symlinks/scan/scanner.js';

const root = process.argv[2] ?? '';
const concurrency = Number(process.argv[3] ?? 0);
const rssBefore = process.memoryUsage().rss;
let peak = rssBefore;
const started = performance.now();
const cpuBefore = process.cpuUsage();
let links = 0;
await walkLinks(
  [root],
  (batch) => {
    links += batch.length;
    peak = Math.max(peak, process.memoryUsage().rss);
  },
  { concurrency },
);
const ms = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
peak = Math.max(peak, process.memoryUsage().rss);
console.log(
  JSON.stringify({
    links,
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssBeforeMiB: rssBefore / 2 ** 20,
    rssPeakMiB: peak / 2 ** 20,
  }),
);
