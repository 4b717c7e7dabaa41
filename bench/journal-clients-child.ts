/**
 * The journal bench's clients, in their own process so their work is not counted as the host's
 * and does not slow the host's event loop: `live` opens N /ws/events clients and keeps the
 * delivery latency of every event (receive time minus the event's `time`, both from the
 * machine's clock); `report` answers the percentiles since the last report; `replay` reads the
 * whole journal through one client and answers how long it took. Talks to the parent over IPC.
 */
import { WebSocket } from 'undici';
import { percentile } from './lib/stats.js';

type Command =
  | { readonly op: 'live'; readonly url: string; readonly clients: number }
  | { readonly op: 'report' }
  | { readonly op: 'replay'; readonly url: string }
  | { readonly op: 'exit' };

const TIME = /"time":"([^"]+)"/;
const sockets: WebSocket[] = [];
let latencies: number[] = [];

/** Open one client; resolves when it turned live, calls `onEvent` for each event frame. */
function follow(url: string, onEvent: (text: string) => void): Promise<WebSocket> {
  const socket = new WebSocket(url);
  return new Promise((resolve, reject) => {
    socket.addEventListener('message', (message) => {
      const text = String(message.data);
      if (text.startsWith('{"type":"live"')) resolve(socket);
      else if (text.startsWith('{"type"')) reject(new Error(text));
      else onEvent(text);
    });
    socket.addEventListener('error', () => reject(new Error(`socket ${url} failed`)));
    socket.addEventListener('close', (event) => reject(new Error(`closed: ${event.code}`)));
  });
}

async function live(url: string, clients: number): Promise<unknown> {
  const opened = await Promise.all(
    Array.from({ length: clients }, () =>
      follow(url, (text) => {
        const time = TIME.exec(text)?.[1];
        if (time !== undefined) latencies.push(Date.now() - Date.parse(time));
      }),
    ),
  );
  sockets.push(...opened);
  return { clients: opened.length };
}

function report(): unknown {
  const values = latencies;
  latencies = [];
  return {
    events: values.length,
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    max: values.reduce((max, value) => Math.max(max, value), 0),
  };
}

async function replay(url: string): Promise<unknown> {
  let events = 0;
  let bytes = 0;
  const started = performance.now();
  const socket = await follow(url, (text) => {
    events += 1;
    bytes += text.length;
  });
  const ms = performance.now() - started;
  socket.close();
  return { events, ms, bytes };
}

async function handle(command: Command): Promise<unknown> {
  switch (command.op) {
    case 'live':
      return live(command.url, command.clients);
    case 'report':
      return report();
    case 'replay':
      return replay(command.url);
    case 'exit':
      for (const socket of sockets) socket.close();
      setTimeout(() => process.exit(0), 100);
      return {};
  }
}

process.on('message', (command: Command) => {
  handle(command).then(
    (answer) => process.send?.({ ok: true, answer }),
    (error: unknown) => process.send?.({ ok: false, error: String(error) }),
  );
});
process.send?.({ ok: true, answer: 'ready' });
