/**
 * The floor of the /ws/metrics fan-out: a bare uWebSockets.js server that accepts WebSockets on
 * /ws/metrics, subscribes each to one topic, and every `BENCH_FLOOR_INTERVAL_MS` serializes one
 * frame of `BENCH_FLOOR_FRAME_BYTES` (carrying `taken_at`, as stackd's snapshot does) and
 * publishes it — what a server with nothing else to do pays to reach every client. It sends a
 * first frame on open, as stackd does. Prints `listening PORT`.
 */
import { uws } from '../../core/http/uws-app.js';

const uWS = uws();

const interval = Number(process.env.BENCH_FLOOR_INTERVAL_MS ?? 500);
const frameBytes = Number(process.env.BENCH_FLOOR_FRAME_BYTES ?? 4096);
const TOPIC = 'metrics';

function frame(): string {
  const head = { type: 'snapshot', data: { taken_at: new Date().toISOString(), pad: '' } };
  const bare = JSON.stringify(head).length;
  head.data.pad = 'x'.repeat(Math.max(0, frameBytes - bare));
  return JSON.stringify(head);
}

const app = uWS.App();
app.ws('/ws/metrics', {
  maxBackpressure: 1024 * 1024,
  open: (ws) => {
    ws.subscribe(TOPIC);
    ws.send(frame(), false);
  },
});
setInterval(() => app.publish(TOPIC, frame(), false), interval);
app.listen('127.0.0.1', 0, (socket) => {
  if (socket === false) throw new Error('cannot listen');
  process.stdout.write(`listening ${uWS.us_socket_local_port(socket)}\n`);
});
