/**
 * Child process of the symlinks bench: scan one tree with the plugin's scanner and print
 * `{links, ms, rssBeforeMiB, rssPeakMiB}` — in its own process so RSS growth is the scan's.
 */
import { walkLinks } from '../plugins/symlinks/scan/scanner.js';

const root = process.argv[2] ?? '';
const concurrency = Number(process.argv[3] ?? 0);
const rssBefore = process.memoryUsage().rss;
let peak = rssBefore;
const started = performance.now();
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
peak = Math.max(peak, process.memoryUsage().rss);
console.log(
  JSON.stringify({ links, ms, rssBeforeMiB: rssBefore / 2 ** 20, rssPeakMiB: peak / 2 ** 20 }),
);
