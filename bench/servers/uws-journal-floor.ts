/**
 * The floor of the journal's live fan-out: a bare uWebSockets.js server that accepts WebSockets on
 * /ws/events, says `{"type":"live"}` and subscribes each to one topic, and every
 * `BENCH_FLOOR_BURST_EVERY_MS` publishes `BENCH_FLOOR_BURST` event frames shaped as stackd's
 * `test.tick` events (cursor, time, kind, subject, data) in one turn — what a server with no
 * storage, no filters and no event source pays to send 1,000 events/s to every client. Prints
 * `listening PORT`.
 */
import { uws } from '../../core/http/uws-app.js';

const uWS = uws();

const burst = Number(process.env.BENCH_FLOOR_BURST ?? 20);
const burstEveryMs = Number(process.env.BENCH_FLOOR_BURST_EVERY_MS ?? 20);
const TOPIC = 'events';
let cursor = 0;

function frame(n: number): string {
  cursor += 1;
  const time = new Date().toISOString();
  return JSON.stringify({ cursor, time, kind: 'test.tick', subject: 'live', data: { n } });
}

const app = uWS.App();
app.ws('/ws/events', {
  maxBackpressure: 1024 * 1024,
  open: (ws) => {
    ws.send(JSON.stringify({ type: 'live', cursor }), false);
    ws.subscribe(TOPIC);
  },
});
// The same pacing as the bench's event source: bursts on a fixed schedule, not drifting with it.
const started = performance.now();
let bursts = 0;
const next = (): void => {
  bursts += 1;
  for (let n = 0; n < burst; n += 1) app.publish(TOPIC, frame(n), false);
  setTimeout(next, Math.max(0, started + (bursts + 1) * burstEveryMs - performance.now()));
};
setTimeout(next, burstEveryMs);
app.listen('127.0.0.1', 0, (socket) => {
  if (socket === false) throw new Error('cannot listen');
  process.stdout.write(`listening ${uWS.us_socket_local_port(socket)}\n`);
});
