/** Demo service: a tiny HTTP server with /health, logging each request. */
import { createServer } from 'node:http';

const portIndex = process.argv.indexOf('--port');
const port = Number(portIndex >= 0 ? process.argv[portIndex + 1] : 8091);
const greeting = process.env.DEMO_GREETING ?? 'hello';

const server = createServer((request, response) => {
  console.log(`${request.method ?? 'GET'} ${request.url ?? '/'}`);
  // Tells a host starting again on the same data dir that this port is held by its own demo.
  response.setHeader('x-stackd-demo', process.env.DEMO_INSTANCE ?? 'web');
  if (request.url === '/health') {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  response.writeHead(200, { 'content-type': 'text/plain' }).end(`${greeting}\n`);
});
server.listen(port, '127.0.0.1', () => console.log(`demo web listening on 127.0.0.1:${port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
