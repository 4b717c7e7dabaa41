/**
 * The event journal: 1,000 events/s recorded with host CPU and live delivery p99 to 100
 * /ws/events clients; replay of 100,000 events to one client; bytes per stored event.
 * Events come from the test fixture plugin publishing through the sdk (one HTTP request per
 * 100 events, which the host's CPU figure includes).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'undici';
import { FIXTURES_DIR } from '../test/helpers/start-host.js';
import { postJson, startBenchHost, stopHost } from './lib/host.js';
import { cpuMs } from './lib/proc-sample.js';
import { figure, type Figure } from './lib/report.js';
import { percentile, round } from './lib/stats.js';

const BURST_PLUGIN = join(FIXTURES_DIR, 'plugins', 'event-burst.js');

function follow(url: string, onEvent: (event: { time: string }) => void): Promise<WebSocket> {
  const socket = new WebSocket(url);
  return new Promise((resolve, reject) => {
    socket.addEventListener('message', (message) => {
      const text = String(message.data);
      if (text.includes('"type":"live"')) resolve(socket);
      else if (!text.includes('"type"')) onEvent(JSON.parse(text) as { time: string });
    });
    socket.addEventListener('error', () => reject(new Error(`socket ${url} failed`)));
  });
}

/** Run the journal area. */
export async function journalBench(options: {
  clients: number;
  seconds: number;
  replay: number;
}): Promise<{
  figures: Figure[];
  details: Record<string, unknown>;
}> {
  const host = await startBenchHost({}, [BURST_PLUGIN]);
  const pid = host.child.pid ?? 0;
  const ws = host.url.replace('http', 'ws');
  try {
    const latencies: number[] = [];
    const sockets = await Promise.all(
      Array.from({ length: options.clients }, () =>
        follow(`${ws}/ws/events?kinds=test.tick&subject=live`, (event) =>
          latencies.push(Date.now() - Date.parse(event.time)),
        ),
      ),
    );
    const cpuBefore = cpuMs(pid);
    const started = performance.now();
    for (let tick = 0; tick < options.seconds * 10; tick += 1) {
      await postJson(host, '/test-events/burst', { count: 100, subject: 'live' });
      const next = started + (tick + 1) * 100;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const wallMs = performance.now() - started;
    const cpuPercent = ((cpuMs(pid) - cpuBefore) / wallMs) * 100;
    for (const socket of sockets) socket.close();

    for (let done = options.seconds * 1000; done < options.replay; done += 10_000)
      await postJson(host, '/test-events/burst', { count: 10_000, subject: 'fill' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    let replayed = 0;
    const replayStart = performance.now();
    const replaySocket = await follow(`${ws}/ws/events?since=0`, () => (replayed += 1));
    const replayMs = performance.now() - replayStart;
    replaySocket.close();
    const bytes = statSync(join(host.dataDir, 'journal', 'events.db')).size;
    const p99 = percentile(latencies, 99);
    return {
      figures: [
        figure('journal', 'host CPU at 1,000 events/s, 100 clients', round(cpuPercent, 1), '%', {
          goal: { op: '<', limit: 5 },
        }),
        figure('journal', 'live delivery p99, 100 /ws/events clients', p99, 'ms', {
          goal: { op: '<', limit: 20 },
        }),
        figure('journal', `replay of ${replayed} events to one client`, round(replayMs), 'ms', {
          goal: { op: '<', limit: 1000 },
        }),
        figure('journal', 'journal growth per event', round(bytes / replayed), 'B'),
      ],
      details: {
        delivered: latencies.length,
        p50_ms: percentile(latencies, 50),
        replayed,
        db_bytes: bytes,
      },
    };
  } finally {
    await stopHost(host);
  }
}
