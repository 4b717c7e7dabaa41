/**
 * The floor of the HTTP benchmark: a bare uWebSockets.js server answering each path of the
 * bodies file with the same JSON stackd sends, stringified per request as any handler would
 * (no routing table, auth gate, validation or plugin pipeline). Prints `listening PORT`.
 */
import { uws } from '../../core/http/uws-app.js';

const uWS = uws();
import { readBodies } from './bodies.js';

const app = uWS.App();
for (const [path, body] of readBodies()) {
  app.get(path, (res) => {
    const text = JSON.stringify(body);
    res.cork(() => {
      res.writeHeader('content-type', 'application/json; charset=utf-8').end(text);
    });
  });
}
app.listen('127.0.0.1', 0, (socket) => {
  if (socket === false) throw new Error('cannot listen');
  process.stdout.write(`listening ${uWS.us_socket_local_port(socket)}\n`);
});
