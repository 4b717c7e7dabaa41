/**
 * Streams: log lines to N /ws/logs clients. A supervised program prints a numbered line with its
 * send time every `intervalMs`; each client records receipt − send time (both from the same
 * system clock, sub-ms via performance.timeOrigin + now()). The path measured: the program's
 * pipe, the host's read, log file write and redaction, the bus, the WebSocket fan-out, the
 * kernel, and the client's own frame parsing (all clients share this process's event loop).
 * Beside it, the host's time on CPU (every thread) over the measured lines per line delivered
 * to a client: the figure that does not swing with the machine's load. The goal (p99 < 50 ms)
 * has a margin of several times the run-to-run swing, so it stays on the latency.
 */
import { WebSocket } from 'undici';
import { track } from './lib/cleanup.js';
import { getJson, startBenchHost, stopHost } from './lib/host.js';
import { cpuPreciseMs } from './lib/proc-sample.js';
import { figure, type Figure } from './lib/report.js';
import { round, summarize } from './lib/stats.js';
import { waitFor } from './lib/wait.js';

/** Settings of the /ws/logs benchmark. */
export interface StreamsBenchOptions {
  readonly clients: number;
  readonly lines: number;
  readonly intervalMs: number;
}

const PROCESS_NAME = 'Ticker';
const now = (): number => performance.timeOrigin + performance.now();

function tickerScript(intervalMs: number): string {
  return `let n=0;setInterval(()=>{n+=1;process.stdout.write('tick '+n+' '+(performance.timeOrigin+performance.now())+'\\n')},${intervalMs})`;
}

interface Frame {
  type: string;
  lines: string[];
}

/** Run the /ws/logs benchmark. */
export async function streamsBench(
  options: StreamsBenchOptions,
): Promise<{ figures: Figure[]; details: Record<string, unknown> }> {
  const host = await startBenchHost({
    ticker: {
      enabled: true,
      process_name: PROCESS_NAME,
      command: [process.execPath, '-e', tickerScript(options.intervalMs)],
    },
  });
  const sockets: WebSocket[] = [];
  try {
    const list = await waitFor(
      () =>
        getJson<{ processes: { status: string; pid?: number | null }[] }>(
          host,
          '/process/processes',
        ),
      (body) => body.processes[0]?.status === 'running',
      20_000,
    );
    const pid = list.processes[0]?.pid;
    if (typeof pid === 'number') track(pid, 'ticker process');

    let measureFrom = Number.POSITIVE_INFINITY;
    let lastSeq = 0;
    const latencies: number[] = [];
    const url = `${host.url.replace('http', 'ws')}/ws/logs?format=json&process_name=${encodeURIComponent(PROCESS_NAME)}`;
    const open = (): Promise<WebSocket> =>
      new Promise((resolve, reject) => {
        const socket = new WebSocket(url);
        socket.addEventListener('message', (event) => {
          const received = now();
          if (typeof event.data !== 'string') return;
          const frame = JSON.parse(event.data) as Frame;
          if (frame.type !== 'logs') return;
          for (const line of frame.lines) {
            const [, seq, sent] = line.split(' ');
            lastSeq = Math.max(lastSeq, Number(seq));
            if (Number(seq) < measureFrom || Number(seq) >= measureFrom + options.lines) continue;
            latencies.push(received - Number(sent));
          }
        });
        socket.addEventListener('open', () => resolve(socket), { once: true });
        socket.addEventListener('error', () => reject(new Error('socket error')), { once: true });
      });
    for (let index = 0; index < options.clients; index += 25)
      sockets.push(
        ...(await Promise.all(Array.from({ length: Math.min(25, options.clients - index) }, open))),
      );
    // Measure lines sent from now on, once every client is subscribed.
    const current = await getJson<{ chunk: string }>(
      host,
      `/logs?process_name=${encodeURIComponent(PROCESS_NAME)}&tail_bytes=1024`,
    );
    const seen = current.chunk.trim().split('\n').at(-1)?.split(' ')[1];
    measureFrom = Number(seen ?? 0) + 2;
    const expected = options.lines * options.clients;
    const hostPid = host.child.pid ?? Number.NaN;
    const cpuBefore = cpuPreciseMs(hostPid);
    await waitFor(
      () => lastSeq,
      (seq) => seq >= measureFrom + options.lines,
      options.lines * options.intervalMs * 3 + 10_000,
      options.intervalMs,
    );
    const hostCpuMs = cpuPreciseMs(hostPid) - cpuBefore;
    const summary = summarize(latencies);
    const area = `Streams /ws/logs (${options.clients} clients)`;
    return {
      figures: [
        figure(area, 'line delivery p50', summary.p50, 'ms'),
        figure(area, 'line delivery p99', summary.p99, 'ms', { goal: { op: '<', limit: 50 } }),
        figure(area, 'lines delivered', Math.round((latencies.length / expected) * 1000) / 10, '%'),
        figure(
          area,
          'host CPU per line delivered to a client',
          round((hostCpuMs * 1000) / Math.max(1, latencies.length), 2),
          'µs',
          { note: "the whole window: the ticker's pipe, log file, redaction, bus and fan-out" },
        ),
      ],
      details: {
        options,
        latency_ms: summary,
        deliveries: latencies.length,
        expected,
        host_cpu_ms: round(hostCpuMs, 1),
      },
    };
  } finally {
    for (const socket of sockets) socket.close();
    await stopHost(host);
  }
}
