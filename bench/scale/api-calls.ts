/**
 * Every API call on an idle host: each GET operation of the host's own OpenAPI document that
 * needs no path parameter (WebSocket routes aside), its `process_name` filled with one
 * supervised process (which makes `GET /process` the process detail), called one at a time
 * `calls` times; the latency of each call as a client sees it (request to last body byte), and
 * the host's CPU per call (on a loaded machine the wall p99 includes waiting for a core; the CPU
 * says which routes are slow by their own work). Then the floor of the largest answer: the same
 * client fetching as many bytes from a bare node:http server (scale/send-floor-server.ts).
 */
import { join } from 'node:path';
import { BENCH_DIR, startReadyChild } from '../lib/children.js';
import { cpuPreciseMs } from '../lib/proc-sample.js';
import { percentile, round } from '../lib/stats.js';

/** One route's calls. */
export interface RouteCalls {
  readonly route: string;
  readonly p50_ms: number;
  readonly p99_ms: number;
  /** Host CPU per call (ms), all threads. */
  readonly cpu_ms: number;
  /** Bytes of the last answer. */
  readonly bytes: number;
  /** Statuses answered, each with its count. */
  readonly statuses: Record<string, number>;
}

/** All routes called, the worst p99 and what was left out and why. */
export interface ApiCalls {
  readonly calls_per_route: number;
  readonly routes: readonly RouteCalls[];
  readonly worst: RouteCalls | undefined;
  readonly skipped: readonly string[];
  /** The floor at the largest answer's size: a bare node:http server, the same client and calls. */
  readonly floor?: SendFloor;
}

/** Wall times of fetching `bytes` from a bare server, and that server's CPU per call. */
export interface SendFloor {
  readonly bytes: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly cpu_ms: number;
}

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
}

interface Operation {
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: unknown;
}

interface OpenApi {
  readonly paths: Record<string, { get?: Operation }>;
}

/** The GET routes to call, with their query filled; the rest with the reason they were left. */
export function routesOf(
  document: OpenApi,
  processName: string,
): { routes: string[]; skipped: string[] } {
  const routes: string[] = [];
  const skipped: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const operation = item.get;
    if (operation === undefined) continue;
    if (path.startsWith('/ws/')) skipped.push(`${path}: a WebSocket`);
    else if (path.includes('{') || path.includes(':')) skipped.push(`${path}: path parameter`);
    else {
      const required = (operation.parameters ?? []).filter(
        (parameter) => parameter.required === true && parameter.in === 'query',
      );
      const unknown = required.filter((parameter) => parameter.name !== 'process_name');
      // A process named where the route takes one, required or not (`GET /logs` answers 422
      // without a process or a file).
      const takesProcess = (operation.parameters ?? []).some(
        (parameter) => parameter.in === 'query' && parameter.name === 'process_name',
      );
      if (unknown.length > 0)
        skipped.push(`${path}: required ${unknown.map((parameter) => parameter.name).join(', ')}`);
      else if (takesProcess) routes.push(`${path}?process_name=${encodeURIComponent(processName)}`);
      else routes.push(path);
    }
  }
  return { routes, skipped };
}

/** `calls` timed GETs of `url` (after two untimed ones), one at a time, and `pid`'s CPU per call. */
async function timedCalls(url: string, calls: number, pid: number) {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  let bytes = 0;
  // Two calls first: a route's first answer compiles its code and fills its caches.
  for (let index = 0; index < 2; index += 1) await (await fetch(url)).arrayBuffer();
  const before = cpuPreciseMs(pid);
  for (let index = 0; index < calls; index += 1) {
    const start = performance.now();
    const response = await fetch(url);
    bytes = (await response.arrayBuffer()).byteLength;
    times.push(performance.now() - start);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
  const cpu = (cpuPreciseMs(pid) - before) / calls;
  return {
    p50_ms: round(percentile(times, 50)),
    p99_ms: round(percentile(times, 99)),
    cpu_ms: round(cpu, 2),
    bytes,
    statuses,
  };
}

/** The floor of sending `bytes`: {@link timedCalls} against a bare node:http server. */
export async function sendFloor(bytes: number, calls: number): Promise<SendFloor> {
  const server = await startReadyChild(
    join(BENCH_DIR, 'scale', 'send-floor-server.js'),
    [],
    /port (\d+)/,
    { label: 'send floor' },
  );
  try {
    const url = `http://127.0.0.1:${server.ready}/${bytes}`;
    const { p50_ms, p99_ms, cpu_ms } = await timedCalls(url, calls, server.pid);
    return { bytes, p50_ms, p99_ms, cpu_ms };
  } finally {
    await server.stop();
  }
}

/** Call every route of {@link routesOf} `calls` times, one call at a time; `pid` is the host's. */
export async function apiCalls(url: string, calls: number, pid: number): Promise<ApiCalls> {
  const document = (await (await fetch(`${url}/openapi.json`)).json()) as OpenApi;
  const list = (await (await fetch(`${url}/process/processes`)).json()) as {
    processes: { process_name: string }[];
  };
  const processName = list.processes[0]?.process_name ?? '';
  const { routes, skipped } = routesOf(document, processName);
  const results: RouteCalls[] = [];
  for (const route of routes)
    results.push({ route, ...(await timedCalls(`${url}${route}`, calls, pid)) });
  const worst = results.reduce<RouteCalls | undefined>(
    (top, entry) => (top === undefined || entry.p99_ms > top.p99_ms ? entry : top),
    undefined,
  );
  const largest = Math.max(0, ...results.map((entry) => entry.bytes));
  const floor = largest > 0 ? await sendFloor(largest, calls) : undefined;
  return { calls_per_route: calls, routes: results, worst, skipped, ...(floor ? { floor } : {}) };
}
