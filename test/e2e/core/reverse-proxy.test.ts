/** The core reverse proxy: HTTP both ways (streamed), WebSocket relay, unknown keys, dead upstreams. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { uws, type us_listen_socket } from '../../../core/http/uws-app.js';
import { eventually } from '../../helpers/eventually.js';
import { HELLO_PLUGIN_DIR } from '../../helpers/fixture-paths.js';
import { openSocket, request } from '../../helpers/http.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';

const uWS = uws();

let host: RunningHostProcess;
let upstream: Server;
let wsUpstream: us_listen_socket;
let upstreamCloses = 0;

test.before(async () => {
  upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url?.startsWith('/big')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const block = Buffer.alloc(1024 * 1024, 7);
        for (let index = 0; index < 8; index += 1) res.write(block);
        res.end();
        return;
      }
      res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
      res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': 'yes' });
      res.end(
        JSON.stringify({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const wsPort = await new Promise<number>((resolve) => {
    uWS
      .App()
      .ws('/*', {
        close: () => {
          upstreamCloses += 1;
        },
        message: (ws, message) => {
          ws.send(`echo:${Buffer.from(message).toString('utf8')}`);
        },
      })
      .listen('127.0.0.1', 0, (socket) => {
        wsUpstream = socket;
        resolve(uWS.us_socket_local_port(wsUpstream));
      });
  });
  const httpPort = (upstream.address() as AddressInfo).port;
  // One origin serves both: HTTP on the node server; the WS test uses a second host pointing at uWS.
  host = await startHost({
    plugins: [HELLO_PLUGIN_DIR],
    env: { HELLO_UPSTREAM: `http://127.0.0.1:${httpPort}` },
  });
  wsHost = await startHost({
    plugins: [HELLO_PLUGIN_DIR],
    env: { HELLO_UPSTREAM: `http://127.0.0.1:${wsPort}` },
  });
});
let wsHost: RunningHostProcess;

test.after.always(async () => {
  await host?.stop();
  await wsHost?.stop();
  upstream?.close();
  if (wsUpstream !== undefined) uWS.us_listen_socket_close(wsUpstream);
});

test('requests are forwarded with method, path, query, body and forwarding headers', async (t) => {
  const response = await request(host.url, '/hello/proxy/up/api/v3/series?x=1', {
    method: 'PUT',
    body: { hello: 'there' },
    headers: { 'x-custom': 'kept' },
  });
  t.is(response.status, 201);
  t.is(response.headers.get('x-upstream'), 'yes');
  t.deepEqual(response.headers.getSetCookie(), ['a=1; Path=/', 'b=2; Path=/']);
  t.is(response.body.method, 'PUT');
  t.is(response.body.url, '/api/v3/series?x=1');
  t.is(response.body.body, '{"hello":"there"}');
  t.is(response.body.headers['x-custom'], 'kept');
  t.is(response.body.headers['x-forwarded-prefix'], '/hello/proxy/up');
});

test('the /api alias proxies too, and large bodies stream through', async (t) => {
  const response = await fetch(new URL('/api/hello/proxy/up/big', host.url));
  t.is(response.status, 200);
  t.is((await response.arrayBuffer()).byteLength, 8 * 1024 * 1024);
});

test('an unknown key is 404 with the error body', async (t) => {
  const response = await request(host.url, '/hello/proxy/nope/x');
  t.is(response.status, 404);
  t.is(response.body.code, 'PROXY_TARGET_NOT_FOUND');
});

test('a malformed key answers 400 at once instead of hanging', async (t) => {
  for (const bad of ['%ff', '%ED%A0%80']) {
    const response = await request(host.url, `/hello/proxy/${bad}/x`);
    t.is(response.status, 400, bad);
    t.is(response.body.code, 'REQUEST_MALFORMED_ENCODING');
    t.is(response.body.field, 'key');
  }
});

test('WebSocket upgrades are relayed both ways', async (t) => {
  const socket = await openSocket(wsHost.url, '/hello/proxy/up/socket');
  socket.socket.send('hi');
  t.is(await socket.next((message) => message.startsWith('echo:')), 'echo:hi');
  const closesBefore = upstreamCloses;
  socket.close();
  // The relay closes the upstream side too; the host must not touch the closed client socket.
  await eventually(() => upstreamCloses > closesBefore, { what: 'the upstream side to close' });
  t.is((await request(wsHost.url, '/health')).status, 200);
  const again = await openSocket(wsHost.url, '/hello/proxy/up/socket');
  again.socket.send('again');
  t.is(await again.next((message) => message.startsWith('echo:')), 'echo:again');
  again.close();
  t.is(wsHost.child.exitCode, null, 'the host is still running');
});

test('a dead upstream is 502, not a crash', async (t) => {
  const dead = await startHost({
    plugins: [HELLO_PLUGIN_DIR],
    env: { HELLO_UPSTREAM: 'http://127.0.0.1:9' },
  });
  try {
    const response = await request(dead.url, '/hello/proxy/up/');
    t.is(response.status, 502);
    t.is(response.body.code, 'PROXY_UPSTREAM_UNREACHABLE');
    t.is((await request(dead.url, '/health')).status, 200);
  } finally {
    await dead.stop();
  }
});
