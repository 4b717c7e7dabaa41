/**
 * HTTP: `GET /process/processes` and `GET /health` on stackd against a bare uWS server serving
 * the same JSON (the floor), the same server plus the work no stackd request can skip (the
 * pipeline floor: header copy, two clock readings) and the same routes on Fastify. The load comes from a separate
 * process, 100 connections; runs are interleaved (floor, stackd, Fastify, floor, …) and the
 * ratios are taken within each round and their median reported.
 *
 * Throughput on two shared cores swings by a third between 10 s windows, so the verdicts read
 * each server's CPU time per request instead: utime + stime from /proc/<pid>/stat over the
 * requests of its run (tens of thousands or more, so the 10 ms clock tick is lost in the count);
 * a server that gets less of a core serves fewer requests but spends the same per request.
 * The throughput goals translate directly: "≥ 0.8× the floor's req/s" is "≤ 1.25× the floor's
 * CPU per request", "≥ 2× Fastify's req/s" is "≤ 0.5× Fastify's CPU per request". A ratio
 * whose spread across rounds is not below its margin to the goal is reported noise-bound.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { track } from './lib/cleanup.js';
import { BENCH_DIR, startReadyChild, type ReadyChild } from './lib/children.js';
import { getJson, processBlocks, startBenchHost, stopHost } from './lib/host.js';
import { loadTool, loadUrl, type LoadResult } from './lib/load.js';
import { cpuMs, settle } from './lib/proc-sample.js';
import { figure, type Figure } from './lib/report.js';
import { rounds, stableFigure } from './lib/stable.js';
import { median, round } from './lib/stats.js';
import { waitFor } from './lib/wait.js';

/** Settings of the HTTP benchmark. */
export interface HttpBenchOptions {
  readonly rounds: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Process blocks in the host's configuration (all running). */
  readonly processes: number;
}

const ROUTES = ['/process/processes', '/health'] as const;
const SERVERS = ['floor', 'pipeline-floor', 'stackd', 'fastify'] as const;
type Server = (typeof SERVERS)[number];

/** A load run with the server's CPU time per request over it. */
interface MeasuredRun extends LoadResult {
  readonly cpu_ms_per_request: number;
}

interface ProcessList {
  processes: { status: string; pid?: number | null }[];
}

/** Run the HTTP benchmark; returns its figures and the raw runs. */
export async function httpBench(
  options: HttpBenchOptions,
): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const host = await startBenchHost({ ...processBlocks(options.processes, { enabled: true }) });
  const bodiesDir = mkdtempSync(join(tmpdir(), 'stackd-bench-http-'));
  const servers: ReadyChild[] = [];
  try {
    const list = await waitFor(
      () => getJson<ProcessList>(host, '/process/processes'),
      (body) =>
        body.processes.filter((entry) => entry.status === 'running').length >= options.processes,
      30_000,
    );
    const pids = list.processes.flatMap((entry) =>
      typeof entry.pid === 'number' ? [entry.pid] : [],
    );
    for (const pid of pids) track(pid, 'supervised process (http bench)');
    await settle(pids);

    const bodiesFile = join(bodiesDir, 'bodies.json');
    const bodies = Object.fromEntries(
      await Promise.all(ROUTES.map(async (route) => [route, await getJson(host, route)] as const)),
    );
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    const ready = /listening (\d+)/;
    const floor = await startReadyChild(
      join(BENCH_DIR, 'servers', 'uws-floor.js'),
      [bodiesFile],
      ready,
      {
        label: 'uws floor server',
      },
    );
    servers.push(floor);
    const pipelineFloor = await startReadyChild(
      join(BENCH_DIR, 'servers', 'uws-pipeline-floor.js'),
      [bodiesFile],
      ready,
      { label: 'uws pipeline floor server' },
    );
    servers.push(pipelineFloor);
    const fastify = await startReadyChild(
      join(BENCH_DIR, 'servers', 'fastify-server.js'),
      [bodiesFile],
      ready,
      { label: 'fastify server' },
    );
    servers.push(fastify);
    const serverPids: Record<Server, number> = {
      floor: floor.pid,
      'pipeline-floor': pipelineFloor.pid,
      stackd: host.child.pid ?? Number.NaN,
      fastify: fastify.pid,
    };
    const base: Record<Server, string> = {
      floor: `http://127.0.0.1:${floor.ready}`,
      'pipeline-floor': `http://127.0.0.1:${pipelineFloor.ready}`,
      stackd: host.url,
      fastify: `http://127.0.0.1:${fastify.ready}`,
    };
    // Same bytes everywhere (the floor and Fastify serve stackd's answer as captured).
    for (const server of SERVERS)
      for (const route of ROUTES) {
        const text = await (await fetch(`${base[server]}${route}`)).text();
        if (server !== 'stackd' && text !== JSON.stringify(bodies[route]))
          throw new Error(`${server} ${route} does not serve the captured body`);
      }

    for (const server of SERVERS)
      for (const route of ROUTES)
        await loadUrl(`${base[server]}${route}`, options.connections, options.warmupSeconds);

    const runs: Record<string, MeasuredRun[]> = {};
    for (let round = 0; round < options.rounds; round += 1)
      for (const route of ROUTES)
        for (const server of roundOrder(round)) {
          const cpuBefore = cpuMs(serverPids[server]);
          const result = await loadUrl(
            `${base[server]}${route}`,
            options.connections,
            options.seconds,
          );
          const cpu = cpuMs(serverPids[server]) - cpuBefore;
          if (result.non_2xx > 0 || result.errors > 0)
            throw new Error(
              `${server} ${route}: ${result.non_2xx} non-2xx, ${result.errors} errors`,
            );
          (runs[`${server} ${route}`] ??= []).push({
            ...result,
            cpu_ms_per_request: cpu / result.requests,
          });
        }
    return { figures: httpFigures(runs), details: { tool: loadTool(), options, runs } };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await stopHost(host);
    rmSync(bodiesDir, { recursive: true, force: true });
  }
}

/**
 * The servers in the order of one round: the machine's speed drifts within minutes, so the
 * order alternates (floor, stackd, Fastify, then Fastify, stackd, floor) and no server always
 * runs first or last.
 */
function roundOrder(round: number): readonly Server[] {
  return round % 2 === 0 ? SERVERS : [...SERVERS].reverse();
}

function httpFigures(runs: Record<string, MeasuredRun[]>): Figure[] {
  const figures: Figure[] = [];
  for (const route of ROUTES) {
    const of = (server: Server): MeasuredRun[] => runs[`${server} ${route}`] ?? [];
    const rates = (server: Server): number[] => of(server).map((run) => run.requests_per_sec);
    const cpu = (server: Server): number[] => of(server).map((run) => run.cpu_ms_per_request);
    // Ratios are taken within each round, against runs seconds apart, and their median
    // reported: a drift of the machine between rounds then cancels instead of landing on
    // whichever server had the slow round.
    const paired = (ours: number[], theirs: number[]): number[] =>
      ours.map((value, index) => value / (theirs[index] ?? Number.NaN));
    const p99 = (server: Server): number => round(median(of(server).map((run) => run.p99_ms)));
    const area = `HTTP GET ${route}`;
    for (const server of SERVERS) {
      const perRequest = rounds(cpu(server));
      figures.push(
        figure(area, `${server} req/s`, Math.round(median(rates(server))), 'req/s'),
        figure(area, `${server} p99`, p99(server), 'ms'),
        figure(area, `${server} CPU per request`, round(perRequest.median * 1000, 2), 'µs', {
          note: `spread ${round(perRequest.spread * 100, 1)} % over ${perRequest.values.length} rounds`,
        }),
      );
    }
    figures.push(
      figure(
        area,
        'stackd / floor (req/s)',
        round(median(paired(rates('stackd'), rates('floor')))),
        '×',
        {
          note: 'information; judged on CPU per request',
        },
      ),
      figure(
        area,
        'stackd / Fastify (req/s)',
        round(median(paired(rates('stackd'), rates('fastify')))),
        '×',
        {
          note: 'information; judged on CPU per request',
        },
      ),
      // What the floor plus the work no stackd request can skip costs: how much of the gap
      // to the floor is left to the pipeline.
      figure(
        area,
        'pipeline floor / floor (CPU per request)',
        round(median(paired(cpu('pipeline-floor'), cpu('floor')))),
        '×',
        { note: 'information: the header copy and clock readings every request needs' },
      ),
      figure(
        area,
        'stackd / pipeline floor (CPU per request)',
        round(median(paired(cpu('stackd'), cpu('pipeline-floor')))),
        '×',
        { note: 'information' },
      ),
      // ≥ 0.8× the floor's throughput is ≤ 1.25× its CPU per request.
      stableFigure(
        area,
        'stackd / floor (CPU per request)',
        rounds(paired(cpu('stackd'), cpu('floor'))),
        '×',
        {
          op: '<=',
          limit: 1.25,
        },
      ),
      // ≥ 2× Fastify's throughput is ≤ 0.5× its CPU per request.
      stableFigure(
        area,
        'stackd / Fastify (CPU per request)',
        rounds(paired(cpu('stackd'), cpu('fastify'))),
        '×',
        {
          op: '<=',
          limit: 0.5,
        },
      ),
    );
  }
  return figures;
}
