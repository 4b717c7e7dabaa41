/**
 * The HTTP benchmark's second floor: the bare uWS server plus the work no stackd request can
 * skip, and nothing else. Each request's header section is copied (stackd must total its size
 * for the 431 check, which uWS 20.30 does not make, and hand the headers to handlers), the
 * clock is read at the start and at the end (the latency histogram of the request metrics) and
 * the request is counted. No routing table, auth gate, validation or handler. Prints
 * `listening PORT`.
 */
import { uws } from '../../core/http/uws-app.js';
import { readBodies } from './bodies.js';

const uWS = uws();
const app = uWS.App();
let headers: Record<string, string> = {};
let headerBytes = 0;
function copyHeader(key: string, value: string): void {
  headers[key] = value;
  headerBytes += key.length + value.length + 4;
}
let answered = 0;
let seconds = 0;
for (const [path, body] of readBodies()) {
  app.get(path, (res, req) => {
    const started = performance.now();
    headers = {};
    headerBytes = 0;
    req.forEach(copyHeader);
    if (headerBytes > 64 * 1024) throw new Error('header section too large');
    const text = JSON.stringify(body);
    res.cork(() => {
      res.writeHeader('content-type', 'application/json; charset=utf-8').end(text);
    });
    answered += 1;
    seconds += (performance.now() - started) / 1000;
  });
}
app.listen('127.0.0.1', 0, (socket) => {
  if (socket === false) throw new Error('cannot listen');
  process.stdout.write(`listening ${uWS.us_socket_local_port(socket)}\n`);
});
process.on('SIGTERM', () => {
  process.stderr.write(`answered ${answered} in ${seconds.toFixed(3)} s\n`);
  process.exit(0);
});
