/**
 * Churn: the real host (every plugin, 50 supervised processes) under what a dashboard and its
 * users do all day — reads of health, processes, config, metrics and logs, a restart every 2 s,
 * /ws/metrics, /ws/logs and /ws/status clients coming and going — for `minutes`. RSS is sampled
 * every 5 s; growth is the median of the last minute minus the median of the first minute after
 * a warm-up (a GC at either end cannot decide it). Goal: < 5 MiB over 10 minutes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'undici';
import { processBlocks, startBenchHost, stopHost, getJson, postJson } from './lib/host.js';
import { rssKiB } from './lib/proc-sample.js';
import { figure, type Figure } from './lib/report.js';
import { median, round } from './lib/stats.js';

export interface ChurnBenchOptions {
  readonly minutes: number;
  readonly warmupMs: number;
  readonly processes: number;
}

const READS = ['/health', '/process/processes', '/config', '/metrics', '/process/capabilities'];

interface ProcessList {
  processes: { status: string }[];
}

export async function churnBench(
  options: ChurnBenchOptions,
): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const host = await startBenchHost({
    stackd: { supervisor: { start_check_ms: 0 } },
    ...processBlocks(options.processes, { enabled: true, command: ['sleep', '3600'] }),
  });
  const pid = host.child.pid ?? Number.NaN;
  const wsBase = host.url.replace('http', 'ws');
  let stop = false;
  const counts = { requests: 0, restarts: 0, sockets: 0, failures: 0 };
  const samples: { at: number; rss_mib: number }[] = [];
  try {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const list = await getJson<ProcessList>(host, '/process/processes');
      if (list.processes.filter((entry) => entry.status === 'running').length >= options.processes)
        break;
      await sleep(200);
    }
    const reader = async () => {
      for (let index = 0; !stop; index += 1) {
        const path = READS[index % READS.length] as string;
        const response = await fetch(`${host.url}${path}`).catch(() => null);
        if (response === null || !response.ok) counts.failures += 1;
        await response?.arrayBuffer();
        counts.requests += 1;
        await sleep(20);
      }
    };
    const logsReader = async () => {
      for (let index = 0; !stop; index += 1) {
        await fetch(
          `${host.url}/logs?process_name=Bench%20${index % options.processes}&tail_bytes=65536`,
        )
          .then((response) => response.arrayBuffer())
          .catch(() => (counts.failures += 1));
        counts.requests += 1;
        await sleep(250);
      }
    };
    const restarter = async () => {
      for (let index = 0; !stop; index += 1) {
        const answer = await postJson(host, '/process/restart-service', {
          process_name: `Bench ${index % options.processes}`,
        }).catch(() => null);
        if (answer?.status !== 200) counts.failures += 1;
        counts.restarts += 1;
        await sleep(2000);
      }
    };
    const sockets = async () => {
      const paths = ['/ws/metrics?interval=1', '/ws/logs', '/ws/status'];
      for (let index = 0; !stop; index += 1) {
        const socket = new WebSocket(`${wsBase}${paths[index % paths.length]}`);
        socket.addEventListener('error', () => (counts.failures += 1));
        counts.sockets += 1;
        setTimeout(() => socket.close(), 3000);
        await sleep(1000);
      }
    };
    const sampler = async () => {
      const start = performance.now();
      while (!stop) {
        samples.push({ at: (performance.now() - start) / 1000, rss_mib: rssKiB(pid) / 1024 });
        await sleep(5000);
      }
    };
    const loops = [reader(), reader(), logsReader(), restarter(), sockets(), sampler()];
    await sleep(options.warmupMs + options.minutes * 60_000);
    stop = true;
    await Promise.all(loops);
  } finally {
    await stopHost(host);
  }
  const warm = options.warmupMs / 1000;
  const end = warm + options.minutes * 60;
  const window = (from: number, to: number) =>
    median(samples.filter((sample) => sample.at >= from && sample.at < to).map((s) => s.rss_mib));
  const first = window(warm, warm + 60);
  const last = window(end - 60, end + 1);
  const area = `Churn (every plugin, ${options.processes} processes, ${options.minutes} min)`;
  return {
    figures: [
      figure(area, 'RSS, first minute after warm-up (median)', round(first, 1), 'MiB'),
      figure(area, 'RSS, last minute (median)', round(last, 1), 'MiB'),
      figure(area, 'RSS growth', round(last - first, 1), 'MiB', { goal: { op: '<', limit: 5 } }),
      figure(area, 'failed requests, restarts or sockets', counts.failures, ''),
    ],
    details: {
      options,
      counts,
      samples: samples.map((sample) => ({
        at_s: round(sample.at, 1),
        rss_mib: round(sample.rss_mib, 1),
      })),
    },
  };
}
