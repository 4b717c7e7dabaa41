/**
 * What only stackd has at each size: the metrics tick (host CPU per /ws/metrics frame beyond the
 * idle rate), the frame's size and what serializing it costs, and the CPU per
 * `GET /process/processes` request next to Fastify serving the same list body (the peer a
 * Node developer would write), in interleaved rounds with their spread.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'undici';
import { BENCH_DIR, startReadyChild } from '../lib/children.js';
import { cpuMs } from '../lib/proc-sample.js';
import { cpuPerOperation, rounds, type Rounds } from '../lib/stable.js';
import { median, round } from '../lib/stats.js';

/** The metrics tick and frame of one host. */
export interface TickFigures {
  readonly frames: number;
  readonly frame_bytes: number;
  /** Host CPU per frame beyond the idle rate (ms): collection, serialization, publishing. */
  readonly tick_cpu_ms: number;
  /**
   * Host CPU per frame with nothing subtracted (ms). The idle rate measured before includes the
   * idle pace's own metrics ticks, which a streaming client replaces rather than adds to, and a
   * noisy idle window can exceed what the frames cost: the net figure then reads 0 at every size
   * but the largest (27 Nov: 0 at 10, 50 and 200 processes, 29.3 ms at 1,000).
   */
  readonly tick_cpu_ms_gross: number;
  /** JSON.stringify of the received frame's object in the bench process (ms, median). */
  readonly serialize_ms: number;
}

/** Stream /ws/metrics for `windowMs`; `idleCpuPercent` is the host's idle rate measured before. */
export async function metricsTick(
  url: string,
  pid: number,
  windowMs: number,
  idleCpuPercent: number,
): Promise<TickFigures> {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/ws/metrics`);
  const frames: string[] = [];
  socket.addEventListener('message', (event) => {
    if (typeof event.data === 'string') frames.push(event.data);
  });
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error('/ws/metrics: socket error')), {
      once: true,
    });
  });
  // The first frames after a consumer appears carry one-time work (the bootstrap, lazy
  // compilation of the stream path): counted from the third frame on.
  const deadline = performance.now() + 30_000;
  while (frames.length < 3 && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  const firstCounted = frames.length;
  const before = cpuMs(pid);
  const start = performance.now();
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  const used = cpuMs(pid) - before;
  const elapsed = performance.now() - start;
  socket.close();
  const counted = frames.slice(firstCounted);
  const last = counted.at(-1) ?? frames.at(-1) ?? '{}';
  const object: unknown = JSON.parse(last);
  const times: number[] = [];
  for (let index = 0; index < 200; index += 1) {
    const begin = performance.now();
    JSON.stringify(object);
    times.push(performance.now() - begin);
  }
  const idleShare = (idleCpuPercent / 100) * elapsed;
  return {
    frames: counted.length,
    frame_bytes: Buffer.byteLength(last),
    tick_cpu_ms:
      counted.length === 0 ? Number.NaN : round(Math.max(0, used - idleShare) / counted.length, 2),
    tick_cpu_ms_gross: counted.length === 0 ? Number.NaN : round(used / counted.length, 2),
    serialize_ms: round(median(times), 3),
  };
}

/** Per-request CPU of stackd's list next to Fastify serving the same body. */
export interface ListCpuFigures {
  readonly stackd_cpu_ms: Rounds;
  readonly stackd_rps: Rounds;
  readonly fastify_cpu_ms: Rounds;
  readonly fastify_rps: Rounds;
  /** stackd / Fastify CPU per request, per round. */
  readonly ratio: Rounds;
  readonly body_bytes: number;
}

const fetchWhole = (target: string) => async (): Promise<void> => {
  const response = await fetch(target);
  if (!response.ok) throw new Error(`GET ${target}: ${response.status}`);
  await response.arrayBuffer();
};

/** Interleaved rounds of `count` requests (8 in flight) on both servers. */
export async function listCpu(
  url: string,
  pid: number,
  options: { count: number; rounds: number },
): Promise<ListCpuFigures> {
  const path = '/process/processes';
  const body = await (await fetch(`${url}${path}`)).json();
  const dir = mkdtempSync(join(tmpdir(), 'stackd-bench-list-'));
  const bodies = join(dir, 'bodies.json');
  writeFileSync(bodies, JSON.stringify({ [path]: body }));
  const fastify = await startReadyChild(
    join(BENCH_DIR, 'servers', 'fastify-server.js'),
    [bodies],
    /listening (\d+)/,
    { label: 'fastify' },
  );
  try {
    const peerUrl = `http://127.0.0.1:${fastify.ready}${path}`;
    const each = { count: options.count, concurrency: 8, rounds: 1 };
    // Warm both (JIT) before measuring.
    await cpuPerOperation(pid, fetchWhole(`${url}${path}`), { ...each, count: 50 });
    await cpuPerOperation(fastify.pid, fetchWhole(peerUrl), { ...each, count: 50 });
    const own: { cpu: number[]; rps: number[] } = { cpu: [], rps: [] };
    const peer: { cpu: number[]; rps: number[] } = { cpu: [], rps: [] };
    for (let index = 0; index < options.rounds; index += 1) {
      const mine = await cpuPerOperation(pid, fetchWhole(`${url}${path}`), each);
      const theirs = await cpuPerOperation(fastify.pid, fetchWhole(peerUrl), each);
      own.cpu.push(mine.cpu_ms.median);
      own.rps.push(mine.ops_per_sec.median);
      peer.cpu.push(theirs.cpu_ms.median);
      peer.rps.push(theirs.ops_per_sec.median);
    }
    return {
      stackd_cpu_ms: rounds(own.cpu),
      stackd_rps: rounds(own.rps),
      fastify_cpu_ms: rounds(peer.cpu),
      fastify_rps: rounds(peer.rps),
      ratio: rounds(own.cpu.map((value, index) => value / (peer.cpu[index] ?? Number.NaN))),
      body_bytes: Buffer.byteLength(JSON.stringify(body)),
    };
  } finally {
    await fastify.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
