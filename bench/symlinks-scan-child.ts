/**
 * Child process of the symlinks bench: scan one tree with the plugin's scanner and print
 * `{links, ms, cpuMs, workers, rssBeforeMiB, rssPeakMiB}` — in its own process so RSS growth is
 * the scan's. `cpuMs` is the process's user + system time over the walk alone (every thread, the
 * scanner's workers included), without node's own start. The RSS is sampled after each batch only
 * when the third argument is `rss`: a sample reads /proc (~17 µs), and in the timed walks those
 * reads were counted as the scanner's CPU (~7 ms per 200,000 links).
 */
import { walkLinks } from '../plugins/symlinks/scan/scanner.js';

const root = process.argv[2] ?? '';
const concurrency = Number(process.argv[3] ?? 0);
const sampleRss = process.argv[4] === 'rss';
const rssBefore = process.memoryUsage().rss;
let peak = rssBefore;
const started = performance.now();
const cpuBefore = process.cpuUsage();
let links = 0;
const { workers } = await walkLinks(
  [root],
  (batch) => {
    links += batch.length;
    if (sampleRss) peak = Math.max(peak, process.memoryUsage().rss);
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
    workers,
    rssBeforeMiB: rssBefore / 2 ** 20,
    rssPeakMiB: peak / 2 ** 20,
  }),
);
