/**
 * Every API call on an idle host: each GET operation of the host's own OpenAPI document that
 * needs no path parameter (WebSocket routes aside), its `process_name` filled with one
 * supervised process (which makes `GET /process` the process detail), called one at a time
 * `calls` times; the latency of each call as a client sees it (request to last body byte).
 */
import { percentile, round } from '../lib/stats.js';

/** One route's calls. */
export interface RouteCalls {
  readonly route: string;
  readonly p50_ms: number;
  readonly p99_ms: number;
  /** Statuses answered, each with its count. */
  readonly statuses: Record<string, number>;
}

/** All routes called, the worst p99 and what was left out and why. */
export interface ApiCalls {
  readonly calls_per_route: number;
  readonly routes: readonly RouteCalls[];
  readonly worst: RouteCalls | undefined;
  readonly skipped: readonly string[];
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

/** Call every route of {@link routesOf} `calls` times, one call at a time. */
export async function apiCalls(url: string, calls: number): Promise<ApiCalls> {
  const document = (await (await fetch(`${url}/openapi.json`)).json()) as OpenApi;
  const list = (await (await fetch(`${url}/process/processes`)).json()) as {
    processes: { process_name: string }[];
  };
  const processName = list.processes[0]?.process_name ?? '';
  const { routes, skipped } = routesOf(document, processName);
  const results: RouteCalls[] = [];
  for (const route of routes) {
    const times: number[] = [];
    const statuses: Record<string, number> = {};
    // Two calls first: a route's first answer compiles its code and fills its caches.
    for (let index = 0; index < calls + 2; index += 1) {
      const start = performance.now();
      const response = await fetch(`${url}${route}`);
      await response.arrayBuffer();
      if (index < 2) continue;
      times.push(performance.now() - start);
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
    results.push({
      route,
      p50_ms: round(percentile(times, 50)),
      p99_ms: round(percentile(times, 99)),
      statuses,
    });
  }
  const worst = results.reduce<RouteCalls | undefined>(
    (top, entry) => (top === undefined || entry.p99_ms > top.p99_ms ? entry : top),
    undefined,
  );
  return { calls_per_route: calls, routes: results, worst, skipped };
}
