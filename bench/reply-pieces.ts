/**
 * `node --semi-space-growth-factor=1 --no-parallel-scavenge dist/bench/reply-pieces.js [KIB]
 * [ROUNDS]`: core's reply path alone, in this process, on a real uWS server on 127.0.0.1. A body
 * of KIB KiB (default 810, the Prometheus body at 1,000 processes) in parts of ~20 KiB of
 * exposition-like text is answered, per round, 10 times written at once (joined, one `end`: the
 * old path) and 10 times through `writeResponse` (a piece per turn), to a client in another
 * process. A 0 ms timer measures the longest gap between its turns during each batch, in this
 * process's CPU time. Prints, as
 * JSON with the load average, the median and the minimum over ROUNDS (default 15) of both.
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { closeListenSocket, createApp, listen } from '../core/http/uws-app.js';
import { ResponseState } from '../core/http/response-state.js';
import { writeResponse } from '../core/http/response-writer.js';
import { joinParts } from '../core/http/body-parts.js';
import { median, round } from './lib/stats.js';

/**
 * This process's CPU time (ms). Gaps are measured in CPU, not wall time: on a shared machine a
 * runnable process waits for a core for several ms, which says nothing about how long the
 * work between two turns is. The main thread is the only busy one here (uWS runs on it, and so
 * does the scavenger with --no-parallel-scavenge).
 */
function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

const kib = Number(process.argv[2] ?? 810);
const roundsWanted = Number(process.argv[3] ?? 15);
const REQUESTS = 10;

const line = (index: number) =>
  `stackd_process_resident_memory_bytes{process="Bench ${index}",service="bench"} ${1e6 + index}\n`;
const parts: string[] = [];
for (let size = 0, index = 0; size < kib * 1024; index += 1) {
  let part = '';
  while (part.length < 20 * 1024) part += line((index += 1));
  parts.push(part);
  size += part.length;
}

const app = createApp();
app.get('/one-go', (res) => {
  res.cork(() => {
    res.writeStatus('200 OK');
    res.end(joinParts(parts));
  });
});
app.get('/pieces', (res) => {
  void writeResponse(new ResponseState(res), { status: 200, headers: {}, body: parts });
});
const { socket, port } = await listen(app, '127.0.0.1', 0);

const CLIENT = `const [url, n] = process.argv.slice(1);
(async () => { for (let i = 0; i < Number(n); i += 1) await (await fetch(url)).arrayBuffer(); })();`;

/** The longest gap between turns of a 0 ms timer while a client fetches `path` REQUESTS times. */
async function longestGap(path: string): Promise<number> {
  let last = cpuNow();
  let longest = 0;
  let running = true;
  const tick = (): void => {
    const now = cpuNow();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setTimeout(tick, 0);
  };
  const child = spawn(process.execPath, [
    '-e',
    CLIENT,
    `http://127.0.0.1:${port}${path}`,
    String(REQUESTS),
  ]);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // The spawn itself is not part of what is measured: start the timer once the child runs.
  await new Promise((resolve) => setTimeout(resolve, 150));
  last = cpuNow();
  setTimeout(tick, 0);
  await exited;
  running = false;
  return longest;
}

const oneGo: number[] = [];
const pieces: number[] = [];
for (let index = 0; index < roundsWanted; index += 1) {
  oneGo.push(await longestGap('/one-go'));
  pieces.push(await longestGap('/pieces'));
}
closeListenSocket(socket);
const summary = (values: number[]) => ({
  median_ms: round(median(values), 2),
  min_ms: round(Math.min(...values), 2),
});
console.log(
  JSON.stringify({
    body_kib: kib,
    requests_per_round: REQUESTS,
    one_go: summary(oneGo),
    in_pieces: summary(pieces),
    load: loadavg().map((value) => round(value, 1)),
  }),
);
process.exit(0);
