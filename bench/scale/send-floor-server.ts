/**
 * The floor of a large API answer: a bare node:http server on 127.0.0.1 that answers
 * `GET /<n>` with n bytes made beforehand (kept between requests), and nothing else: no routing,
 * no serialization, no host. Prints `port <n>` once listening.
 */
import { createServer } from 'node:http';

const bodies = new Map<number, Buffer>();

const server = createServer((request, response) => {
  const size = Number((request.url ?? '/0').slice(1));
  let body = bodies.get(size);
  if (body === undefined) {
    body = Buffer.alloc(Number.isFinite(size) ? size : 0, 0x20);
    bodies.set(size, body);
  }
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.byteLength,
  });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `port ${typeof address === 'object' && address !== null ? address.port : 0}\n`,
  );
});
