/**
 * HTTP: `GET /process/processes` and `GET /health` on stackd against a bare uWS server serving
 * the same JSON (the floor) and the same routes on Fastify. The load comes from a separate
 * process, 100 connections; runs are interleaved (floor, stackd, Fastify, floor, …) and the
 * ratios are taken within each round and their median reported.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { track } from './lib/cleanup.js';
import { BENCH_DIR, startReadyChild, type ReadyChild } from './lib/children.js';
import { getJson, processBlocks, startBenchHost, stopHost } from './lib/host.js';
import { loadTool, loadUrl, type LoadResult } from './lib/load.js';
import { settle } from './lib/proc-sample.js';
import { figure, type Figure } from './lib/report.js';
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
const SERVERS = ['floor', 'stackd', 'fastify'] as const;
type Server = (typeof SERVERS)[number];

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
    const fastify = await startReadyChild(
      join(BENCH_DIR, 'servers', 'fastify-server.js'),
      [bodiesFile],
      ready,
      { label: 'fastify server' },
    );
    servers.push(fastify);
    const base: Record<Server, string> = {
      floor: `http://127.0.0.1:${floor.ready}`,
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

    const runs: Record<string, LoadResult[]> = {};
    for (let round = 0; round < options.rounds; round += 1)
      for (const route of ROUTES)
        for (const server of roundOrder(round)) {
          const result = await loadUrl(
            `${base[server]}${route}`,
            options.connections,
            options.seconds,
          );
          if (result.non_2xx > 0 || result.errors > 0)
            throw new Error(
              `${server} ${route}: ${result.non_2xx} non-2xx, ${result.errors} errors`,
            );
          (runs[`${server} ${route}`] ??= []).push(result);
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

function httpFigures(runs: Record<string, LoadResult[]>): Figure[] {
  const figures: Figure[] = [];
  for (const route of ROUTES) {
    const rates = (server: Server): number[] =>
      (runs[`${server} ${route}`] ?? []).map((run) => run.requests_per_sec);
    const rate = (server: Server): number => median(rates(server));
    // Ratios are taken within each round, against runs seconds apart, and their median
    // reported: a drift of the machine between rounds then cancels instead of landing on
    // whichever server had the slow round.
    const pairedRatio = (server: Server, against: Server): number => {
      const ours = rates(server);
      const theirs = rates(against);
      return median(ours.map((value, index) => value / (theirs[index] ?? Number.NaN)));
    };
    const p99 = (server: Server): number =>
      round(median((runs[`${server} ${route}`] ?? []).map((run) => run.p99_ms)));
    const area = `HTTP GET ${route}`;
    for (const server of SERVERS) {
      figures.push(figure(area, `${server} req/s`, Math.round(rate(server)), 'req/s'));
      figures.push(figure(area, `${server} p99`, p99(server), 'ms'));
    }
    figures.push(
      figure(area, 'stackd / floor (req/s)', round(pairedRatio('stackd', 'floor')), '×', {
        goal: { op: '>=', limit: 0.8 },
      }),
    );
    figures.push(
      figure(area, 'stackd / Fastify (req/s)', round(pairedRatio('stackd', 'fastify')), '×', {
        goal: { op: '>=', limit: 2 },
      }),
    );
  }
  return figures;
}
