/**
 * The reverse proxy never hands stackd's credentials to the service behind it: the `?token=`
 * query parameter and the bearer header authenticate the request at stackd and are removed from
 * what is forwarded, over HTTP and WebSocket alike. The upstream is a real server on 127.0.0.1
 * that records every request line and header it receives.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { openSocket, request } from '../../helpers/http.js';
import type { RunningHostProcess } from '../../helpers/start-host.js';
import { startAuthHost } from '../auth/auth-host.js';

interface Received {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

const received: Received[] = [];
let upstream: Server;
let host: RunningHostProcess;
let token: string;

test.before(async () => {
  upstream = createServer((req, res) => {
    received.push({ url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  upstream.on('upgrade', (req, socket) => {
    received.push({ url: req.url ?? '', headers: req.headers });
    socket.destroy();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const port = (upstream.address() as AddressInfo).port;
  host = await startAuthHost({}, { env: { HELLO_UPSTREAM: `http://127.0.0.1:${port}` } });
  const setup = await request(host.url, '/api/auth/setup', {
    body: { username: 'admin', password: 'admin-password' },
  });
  token = setup.body.access_token as string;
});

test.after.always(async () => {
  await host?.stop();
  upstream?.close();
});

/** Every place stackd's token could leak through in what the upstream saw. */
function leaks(seen: Received): string[] {
  const found: string[] = [];
  if (seen.url.includes(token)) found.push('url');
  for (const [name, value] of Object.entries(seen.headers)) {
    if (String(value).includes(token)) found.push(name);
  }
  return found;
}

test.serial(
  'an HTTP request authenticated by ?token= reaches the service without the token',
  async (t) => {
    const before = received.length;
    const response = await request(
      host.url,
      `/hello/proxy/up/hello?a=1&token=${token}&b=two%20words&tokens=kept`,
    );
    t.is(response.status, 200, response.text);
    const seen = received[before];
    t.truthy(seen);
    t.is(seen?.url, '/hello?a=1&b=two%20words&tokens=kept');
    t.deepEqual(leaks(seen as Received), []);
  },
);

test.serial(
  'an HTTP request with a bearer header and a query token forwards neither',
  async (t) => {
    const before = received.length;
    const response = await request(host.url, `/hello/proxy/up/x?token=${token}`, {
      method: 'POST',
      body: { a: 1 },
      token,
    });
    t.is(response.status, 200, response.text);
    const seen = received[before] as Received;
    t.is(seen.url, '/x');
    t.is(seen.headers.authorization, undefined);
    t.deepEqual(leaks(seen), []);
  },
);

test.serial(
  'a WebSocket upgrade authenticated by ?token= reaches the service without the token',
  async (t) => {
    const before = received.length;
    const socket = await openSocket(host.url, `/hello/proxy/up/live?token=${token}&room=1`);
    t.teardown(() => socket.close());
    await eventually(() => received.length > before, { what: 'the upstream upgrade request' });
    const seen = received[before] as Received;
    t.is(seen.url, '/live?room=1');
    t.deepEqual(leaks(seen), []);
  },
);

test.serial('without a token the proxy still refuses before reaching the service', async (t) => {
  const before = received.length;
  const response = await request(host.url, '/hello/proxy/up/x?token=not-a-jwt');
  t.is(response.status, 401);
  t.is(received.length, before);
});
