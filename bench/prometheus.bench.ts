/**
 * Prometheus exposition: host CPU per scrape of `/metrics/prometheus` on the real host with every
 * plugin, with 50 and with 1,000 supervised processes (`sleep`, so a thousand fit in memory),
 * the body size, the event-loop block a scrape causes (the worst extra latency of `/health`
 * polled back to back during scrapes, over its latency with no scrape), and the floor: a bare
 * prom-client registry holding the same series, rendered in this process in the same run.
 * Goals: < 2 ms per scrape at 50, < 20 ms and < 1 MiB at 1,000, block < 5 ms.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import { processBlocks, stopHost } from './lib/host.js';
import { startHost } from '../test/helpers/start-host.js';
import { cpuMs } from './lib/proc-sample.js';
import { figure, type Figure } from './lib/report.js';
import { eventually } from '../test/helpers/eventually.js';
import type { RunningHostProcess } from '../test/helpers/start-host.js';

const SLEEP = ['sleep', '1000000'] as const;

async function scrapeOnce(host: RunningHostProcess): Promise<string> {
  const response = await fetch(`${host.url}/metrics/prometheus`);
  return response.text();
}

/** Host CPU per scrape: scrapes back to back, minus the host's idle CPU over as long. */
async function cpuPerScrape(host: RunningHostProcess, scrapes: number): Promise<number> {
  const pid = host.child.pid ?? 0;
  for (let i = 0; i < 20; i += 1) await scrapeOnce(host);
  const started = performance.now();
  const before = cpuMs(pid);
  for (let i = 0; i < scrapes; i += 1) await scrapeOnce(host);
  const busy = cpuMs(pid) - before;
  const elapsed = performance.now() - started;
  const idleBefore = cpuMs(pid);
  await new Promise((resolve) => setTimeout(resolve, elapsed));
  const idle = cpuMs(pid) - idleBefore;
  return Math.max(0, busy - idle) / scrapes;
}

/** Worst `/health` latency during scrapes minus its median without them (ms). */
async function eventLoopBlock(host: RunningHostProcess, scrapes: number): Promise<number> {
  const probe = async (): Promise<number> => {
    const t0 = performance.now();
    await fetch(`${host.url}/health`).then((r) => r.arrayBuffer());
    return performance.now() - t0;
  };
  const quiet: number[] = [];
  for (let i = 0; i < 200; i += 1) quiet.push(await probe());
  quiet.sort((a, b) => a - b);
  const median = quiet[Math.floor(quiet.length / 2)] ?? 0;
  let worst = 0;
  let scraping = true;
  const prober = (async () => {
    while (scraping) worst = Math.max(worst, await probe());
  })();
  for (let i = 0; i < scrapes; i += 1) await scrapeOnce(host);
  scraping = false;
  await prober;
  return Math.max(0, worst - median);
}

/** The same families and samples in a bare prom-client registry: CPU per render (ms). */
async function floorPerRender(body: string, renders: number): Promise<number> {
  const registry = new Registry();
  const families = new Map<
    string,
    { type: string; samples: Array<[Record<string, string>, number]> }
  >();
  let type = 'gauge';
  for (const line of body.split('\n')) {
    if (line.startsWith('# TYPE ')) type = line.split(' ')[3] ?? 'gauge';
    if (line === '' || line.startsWith('#') || type === 'histogram') continue;
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) continue;
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    ) as Record<string, string>;
    const family = families.get(match[1] ?? '') ?? { type, samples: [] };
    family.samples.push([labels, Number(match[3])]);
    families.set(match[1] ?? '', family);
  }
  for (const [name, family] of families) {
    const labelNames = Object.keys(family.samples[0]?.[0] ?? {});
    const metric =
      family.type === 'counter'
        ? new Counter({ name, help: name, labelNames, registers: [registry] })
        : new Gauge({ name, help: name, labelNames, registers: [registry] });
    for (const [labels, value] of family.samples) metric.inc(labels, value);
  }
  for (let i = 0; i < 20; i += 1) await registry.metrics();
  const before = process.cpuUsage();
  for (let i = 0; i < renders; i += 1) await registry.metrics();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / renders;
}

async function measure(count: number, scrapes: number) {
  // Starting a thousand processes holds the boot up on a loaded machine: a long boot timeout.
  const host = await startHost({
    config: {
      stackd: { api_service: { enabled: true, process_name: 'stackd API' } },
      ...processBlocks(count, { enabled: true, command: SLEEP }),
    },
    env: { STACKD_VALIDATE_RESPONSES: '0' },
    bootTimeoutMs: 300_000,
  });
  try {
    await eventually(
      async () =>
        ((await scrapeOnce(host)).match(/^stackd_process_up\{.*\} 1$/gm) ?? []).length >= count,
      { what: `${count} processes running`, timeoutMs: 300_000, intervalMs: 1000 },
    );
    const body = await scrapeOnce(host);
    const cpu = await cpuPerScrape(host, scrapes);
    const block = await eventLoopBlock(host, Math.min(scrapes, 50));
    const floor = await floorPerRender(body, scrapes);
    return { cpu, block, floor, bytes: Buffer.byteLength(body) };
  } finally {
    await stopHost(host);
  }
}

const r2 = (value: number): number => Math.round(value * 100) / 100;

export async function prometheusBench(
  quick: boolean,
): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const area = 'prometheus';
  const small = await measure(50, quick ? 100 : 300);
  const large = await measure(1000, quick ? 20 : 60);
  return {
    figures: [
      figure(area, 'host CPU per scrape, 50 processes, every plugin', r2(small.cpu), 'ms', {
        goal: { op: '<', limit: 2 },
      }),
      figure(area, 'bare prom-client render, same series (floor), 50', r2(small.floor), 'ms'),
      figure(area, 'host CPU per scrape, 1,000 processes', r2(large.cpu), 'ms', {
        goal: { op: '<', limit: 20 },
      }),
      figure(area, 'bare prom-client render, same series (floor), 1,000', r2(large.floor), 'ms'),
      figure(area, 'body, 1,000 processes', r2(large.bytes / 1024), 'KiB', {
        goal: { op: '<', limit: 1024 },
      }),
      figure(area, 'event-loop block per scrape, 50 processes', r2(small.block), 'ms', {
        goal: { op: '<', limit: 5 },
      }),
      figure(area, 'event-loop block per scrape, 1,000 processes', r2(large.block), 'ms', {
        goal: { op: '<', limit: 5 },
      }),
    ],
    details: { small, large },
  };
}
