/**
 * The event journal: 1,000 events/s recorded with host CPU and live delivery p99 to 100
 * /ws/events clients; replay of 100,000 events to one client; bytes per stored event; commits
 * and fsyncs per second, at 1,000 events/s and in a crash loop of 50 processes.
 *
 * The clients live in a child process (bench/journal-clients-child.ts) so that their work is
 * neither the host's CPU nor competition for the host's event loop; latency is the receive time
 * minus the event's `time`, both read from the machine's clock. Events come from the test
 * fixture plugin publishing through the sdk, 20 per HTTP request every 20 ms (the requests are
 * in the host's CPU figure; their own cost is measured apart, the same requests answered without
 * publishing). Each figure is measured over several rounds: a verdict is only
 * given when the rounds agree more closely than the figure's distance to its goal.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FIXTURES_DIR } from '../test/helpers/start-host.js';
import { BENCH_DIR } from './lib/children.js';
import { track, untrack } from './lib/cleanup.js';
import { getJson, postJson, startBenchHost, stopHost } from './lib/host.js';
import { crashLoopRound, type CrashLoopRound } from './journal-crash-loop.js';
import { cpuMs } from './lib/proc-sample.js';
import { startReadyChild } from './lib/children.js';
import { figure, type Figure } from './lib/report.js';
import { rounds, stableFigure } from './lib/stable.js';
import { median, round } from './lib/stats.js';

const BURST_PLUGIN = join(FIXTURES_DIR, 'plugins', 'event-burst.js');
const BURST = 20;
const BURST_EVERY_MS = 20;
const FLOOR = join(BENCH_DIR, 'servers', 'uws-journal-floor.js');

interface JournalSize {
  events: number;
  bytes: number;
  commits: number;
}

/** The clients' process, driven by request/answer messages. */
class ClientsChild {
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<ClientsChild> {
    const child = fork(join(BENCH_DIR, 'journal-clients-child.js'), [], { stdio: 'inherit' });
    track(child.pid, 'journal bench clients');
    const holder = new ClientsChild(child);
    await holder.next();
    return holder;
  }

  async ask<T>(command: Record<string, unknown>): Promise<T> {
    const answer = this.next<T>();
    this.child.send(command);
    return answer;
  }

  async stop(): Promise<void> {
    await this.ask({ op: 'exit' }).catch(() => undefined);
    untrack(this.child.pid);
  }

  private next<T>(): Promise<T> {
    return new Promise((resolve, reject) => {
      this.child.once('message', (message: { ok: boolean; answer?: T; error?: string }) =>
        message.ok ? resolve(message.answer as T) : reject(new Error(message.error)),
      );
    });
  }
}

type Host = Awaited<ReturnType<typeof startBenchHost>>;

const journalSize = async (host: Host): Promise<JournalSize> =>
  (await getJson<{ detail: { journal: JournalSize } }>(host, '/health?detail=true')).detail.journal;

/**
 * `seconds` of the event source: a burst request every 20 ms; with `dryRun` the same requests
 * publish nothing. Answers the host's CPU ms, the wall time and the events published.
 */
async function drive(
  host: Host,
  seconds: number,
  dryRun: boolean,
): Promise<{ cpuMs: number; wallMs: number; events: number }> {
  const pid = host.child.pid ?? 0;
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  const ticks = (seconds * 1000) / BURST_EVERY_MS;
  const body = { count: BURST, subject: 'live', ...(dryRun ? { dry_run: true } : {}) };
  for (let tick = 0; tick < ticks; tick += 1) {
    await postJson(host, '/test-events/burst', body);
    const next = started + (tick + 1) * BURST_EVERY_MS;
    await sleep(Math.max(0, next - performance.now()));
  }
  return {
    cpuMs: cpuMs(pid) - cpuBefore,
    wallMs: performance.now() - started,
    events: dryRun ? 0 : ticks * BURST,
  };
}

/** One round of `seconds` at 1,000 events/s: host CPU %, commits/s and the clients' latency. */
async function liveRound(
  host: Host,
  clients: ClientsChild,
  seconds: number,
): Promise<{
  cpu: number;
  cpuMsPer1000: number;
  eventsPerSec: number;
  commitsPerSec: number;
  p99: number;
  p50: number;
  delivered: number;
}> {
  await clients.ask({ op: 'report' });
  const before = await journalSize(host);
  const driven = await drive(host, seconds, false);
  const wallMs = driven.wallMs;
  const cpu = (driven.cpuMs / wallMs) * 100;
  await sleep(300);
  const after = await journalSize(host);
  const latency = await clients.ask<{ events: number; p50: number; p99: number }>({
    op: 'report',
  });
  return {
    cpu,
    cpuMsPer1000: (driven.cpuMs / driven.events) * 1000,
    eventsPerSec: driven.events / (wallMs / 1000),
    commitsPerSec: (after.commits - before.commits - 1) / (wallMs / 1000),
    p99: latency.p99,
    p50: latency.p50,
    delivered: latency.events,
  };
}

/**
 * The floor, in the same run and with the same clients: a bare uWS server sending the same
 * 1,000 events/s (bursts of 20 every 20 ms) to `clients` sockets. Per round: its CPU % and the
 * clients' p99.
 */
async function floorRounds(
  clients: ClientsChild,
  options: { clients: number; seconds: number; rounds: number },
): Promise<Array<{ cpu: number; cpuMsPer1000: number; p99: number }>> {
  const floor = await startReadyChild(FLOOR, [], /listening (\d+)/, { label: 'journal floor' });
  try {
    await clients.ask({
      op: 'live',
      url: `ws://127.0.0.1:${floor.ready}/ws/events`,
      clients: options.clients,
    });
    const measured = [];
    for (let index = 0; index < options.rounds; index += 1) {
      await clients.ask({ op: 'report' });
      const cpuBefore = cpuMs(floor.pid);
      const started = performance.now();
      await sleep(options.seconds * 1000);
      const used = cpuMs(floor.pid) - cpuBefore;
      const wallMs = performance.now() - started;
      const latency = await clients.ask<{ events: number; p99: number }>({ op: 'report' });
      const events = latency.events / options.clients;
      measured.push({
        cpu: (used / wallMs) * 100,
        cpuMsPer1000: events > 0 ? (used / events) * 1000 : Number.NaN,
        p99: latency.p99,
      });
    }
    return measured;
  } finally {
    await floor.stop();
  }
}

/** Run the journal area. */
export async function journalBench(options: {
  clients: number;
  seconds: number;
  replay: number;
  rounds: number;
}): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const host = await startBenchHost({}, [BURST_PLUGIN]);
  const clients = await ClientsChild.start();
  const ws = host.url.replace('http', 'ws');
  const live = [];
  // The bench's own event source (its HTTP requests, answered without publishing), per round.
  const source: Array<{ cpuMs: number; wallMs: number }> = [];
  const replays: Array<{ events: number; ms: number; bytes: number; hostCpuMs: number }> = [];
  let floor: Array<{ cpu: number; cpuMsPer1000: number; p99: number }>;
  let size: JournalSize;
  try {
    await clients.ask({
      op: 'live',
      url: `${ws}/ws/events?kinds=test.tick&subject=live`,
      clients: options.clients,
    });
    for (let index = 0; index < options.rounds; index += 1) {
      live.push(await liveRound(host, clients, options.seconds));
      source.push(await drive(host, options.seconds, true));
    }

    const stored = (await journalSize(host)).events;
    for (let done = stored; done < options.replay; done += 10_000)
      await postJson(host, '/test-events/burst', {
        count: Math.min(10_000, options.replay - done),
        subject: 'fill',
      });
    await sleep(500);
    size = await journalSize(host);
    const pid = host.child.pid ?? 0;
    for (let index = 0; index < options.rounds; index += 1) {
      const cpuBefore = cpuMs(pid);
      const replayed = await clients.ask<{ events: number; ms: number; bytes: number }>({
        op: 'replay',
        url: `${ws}/ws/events?since=0`,
      });
      replays.push({ ...replayed, hostCpuMs: cpuMs(pid) - cpuBefore });
    }
    // The host is idle from here on (no event source), while the floor runs.
    floor = await floorRounds(clients, options);
  } finally {
    await clients.stop();
    await stopHost(host);
  }
  {
    const crash: CrashLoopRound[] = [];
    for (let index = 0; index < Math.min(2, options.rounds); index += 1)
      crash.push(await crashLoopRound({ processes: 50, seconds: options.seconds }));

    const cpu = rounds(live.map((entry) => entry.cpu));
    const cpuPer1000 = median(live.map((entry) => entry.cpuMsPer1000));
    const sourceCpu = median(source.map((entry) => (entry.cpuMs / entry.wallMs) * 100));
    const floorCpu = rounds(floor.map((entry) => entry.cpu));
    const p99 = rounds(live.map((entry) => entry.p99));
    const replayMs = rounds(replays.map((entry) => entry.ms));
    const replayed = replays[0]?.events ?? 0;
    const eventsPerSecCrash = rounds(crash.map((entry) => entry.eventsPerSec));
    return {
      figures: [
        stableFigure('journal', 'host CPU at 1,000 events/s, 100 clients', cpu, '%', {
          op: '<',
          limit: 5,
        }),
        figure('journal', 'host CPU per 1,000 events, 100 clients', round(cpuPer1000), 'ms', {
          note: `at ${round(median(live.map((entry) => entry.eventsPerSec)))} events/s reached; per event, so a source slowed by the load does not lower it`,
        }),
        figure(
          'journal',
          "of the host CPU at 1,000 events/s: the bench's HTTP event source",
          round(sourceCpu, 1),
          '%',
          {
            note: 'the same 50 requests/s answered without publishing; real events come from plugins inside the host, without a request each',
          },
        ),
        figure(
          'journal',
          'floor: a bare uWS server sending the same 1,000 events/s to 100 clients, its CPU',
          round(floorCpu.median, 2),
          '%',
          {
            note: `spread ${round(floorCpu.spread * 100, 1)} % over ${floorCpu.values.length} rounds; ${round(median(floor.map((entry) => entry.cpuMsPer1000)))} ms per 1,000 events, p99 ${round(median(floor.map((entry) => entry.p99)))} ms; no storage, no filters, no event source: the loopback writes alone`,
          },
        ),
        figure(
          'journal',
          "host CPU without the bench's event source ÷ the floor",
          round((cpu.median - sourceCpu) / floorCpu.median, 2),
          '×',
        ),
        stableFigure('journal', 'live delivery p99, 100 /ws/events clients', p99, 'ms', {
          op: '<',
          limit: 20,
        }),
        stableFigure('journal', `replay of ${replayed} events to one client`, replayMs, 'ms', {
          op: '<',
          limit: 1000,
        }),
        figure(
          'journal',
          `host CPU per replay of ${replayed} events`,
          median(replays.map((entry) => entry.hostCpuMs)),
          'ms',
          { note: 'the part of the replay time the host spends, whatever the load' },
        ),
        figure('journal', 'journal growth per event', round(size.bytes / size.events), 'B'),
        figure(
          'journal',
          'commits/s at 1,000 events/s',
          round(median(live.map((entry) => entry.commitsPerSec)), 1),
          '/s',
          { goal: { op: '<=', limit: 100 } },
        ),
        figure(
          'journal',
          `crash loop of 50 processes: commits/s (${round(eventsPerSecCrash.median)} events/s)`,
          round(median(crash.map((entry) => entry.commitsPerSec)), 1),
          '/s',
          { goal: { op: '<=', limit: 100 } },
        ),
        figure(
          'journal',
          'crash loop of 50 processes: fsyncs/s',
          round(median(crash.map((entry) => entry.fsyncsPerSec)), 1),
          '/s',
          { note: 'every fsync of the host, strace -f -c' },
        ),
      ],
      details: {
        live,
        event_source: source,
        floor,
        replays,
        crash_loop: crash,
        journal: size,
        load_average: loadavg(),
      },
    };
  }
}
