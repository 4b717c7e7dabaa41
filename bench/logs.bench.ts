/**
 * Logs: GET /logs on a 1 GiB log file — the tail (first request, default 128 KiB), a cursor read
 * after ~1 KiB was appended, and a cursor read with nothing new. Latency is measured by the
 * client, end to end over HTTP (keep-alive), sequential requests.
 */
import { appendFileSync, mkdtempSync, openSync, closeSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { startBenchHost, stopHost } from './lib/host.js';
import { figure, type Figure } from './lib/report.js';
import { summarize, type LatencySummary } from './lib/stats.js';

/** Settings of the logs benchmark. */
export interface LogsBenchOptions {
  readonly fileMiB: number;
  readonly requests: number;
}

const PROCESS_NAME = 'Big Log';

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
    const series = async (
      run: () => Promise<{ ms: number; body: Chunk }>,
      check: (body: Chunk) => boolean,
    ): Promise<LatencySummary> => {
      for (let warm = 0; warm < 10; warm += 1) await run();
      const samples: number[] = [];
      for (let index = 0; index < options.requests; index += 1) {
        const { ms, body } = await run();
        if (!check(body))
          throw new Error(`unexpected chunk: ${JSON.stringify(body).slice(0, 200)}`);
        samples.push(ms);
      }
      return summarize(samples);
    };
    const tail = await series(
      () => get(''),
      (body) => body.reset && body.chunk.length > 100_000,
    );
    let last = (await get('')).body;
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
      figure(area, 'GET /logs tail (128 KiB) p50', tail.p50, 'ms', { goal: { op: '<', limit: 5 } }),
      figure(area, 'GET /logs tail (128 KiB) p99', tail.p99, 'ms'),
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
