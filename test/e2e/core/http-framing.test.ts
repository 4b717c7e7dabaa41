/**
 * HTTP edge cases over raw sockets against the real host. What reaches JavaScript is answered
 * 400/431 at once and the connection closed (RFC 9112 §6.3: a request whose end is ambiguous
 * must not be followed by anything on that connection). What uWS's native parser swallows
 * before any JavaScript runs is pinned here as measured, so a uWS upgrade that changes it shows.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { HELLO_PLUGIN_DIR } from '../../helpers/fixture-paths.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';
import { SMUGGLING_CASES, exchangeRaw } from '../../robustness/raw-socket.js';

let host: RunningHostProcess;
let upstream: Server;
let upstreamRequests = 0;

test.before(async () => {
  upstream = createServer((req, res) => {
    upstreamRequests += 1;
    req.resume();
    req.on('end', () => res.end('upstream'));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const port = (upstream.address() as AddressInfo).port;
  host = await startHost({
    plugins: [HELLO_PLUGIN_DIR],
    env: { HELLO_UPSTREAM: `http://127.0.0.1:${port}` },
  });
});

test.after.always(async () => {
  await host?.stop();
  upstream?.close();
});

// Generous: the machine is shared; the point is "at once", not the 10 s idle timeout.
const AT_ONCE_MS = 5_000;

for (const path of ['/hello/echo', '/no/such/route', '/hello/proxy/up/x']) {
  for (const smuggle of SMUGGLING_CASES) {
    test(`${smuggle.name} on ${path}: ${smuggle.status} and the connection closed`, async (t) => {
      const before = upstreamRequests;
      const answer = await exchangeRaw(host.port, smuggle.head(path), 15_000);
      if (answer.status === null && smuggle.unansweredAllowed === true) {
        t.is(answer.received, '', 'uWS closed it before JavaScript: nothing at all is written');
      } else {
        t.is(answer.status, smuggle.status, answer.received.slice(0, 200));
        t.regex(answer.received, /"code":"REQUEST_/);
      }
      t.true(answer.closed, 'closed by the host');
      t.true(answer.elapsedMs < AT_ONCE_MS, `closed after ${answer.elapsedMs} ms`);
      t.is(upstreamRequests, before, 'nothing reached the proxied service');
    });
  }
}

test('one Content-Length that is a number still works (the check is not too eager)', async (t) => {
  const answer = await exchangeRaw(
    host.port,
    'GET /health HTTP/1.1\r\nHost: 127.0.0.1:1\r\nConnection: close\r\n\r\n',
    15_000,
  );
  t.is(answer.status, 200, answer.received.slice(0, 200));
});

test('a 3.5 KB header section that arrives in two reads is answered', async (t) => {
  const head = `GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: ${'c'.repeat(3_500)}\r\n\r\n`;
  const answer = await exchangeRaw(host.port, [head.slice(0, 40), head.slice(40)], 15_000);
  t.is(answer.status, 200, answer.received.slice(0, 200));
});

test('a 60 KB header section that arrives in one read is answered', async (t) => {
  const head = `GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nCookie: ${'c'.repeat(60_000)}\r\n\r\n`;
  const answer = await exchangeRaw(host.port, head, 15_000);
  t.is(answer.status, 200, answer.received.slice(0, 200));
});

/**
 * Refused by uWS 20.30's parser before JavaScript: the connection is closed at once and nothing
 * is written (no 400/501 can be sent from JavaScript for these).
 */
const CLOSED_SILENTLY = {
  'an unknown method': 'FOO /health HTTP/1.1\r\nHost: x\r\n\r\n',
  'a Content-Length that is not a number':
    'POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
  'a Content-Length list': 'POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 2, 2\r\n\r\n{}',
  'a negative Content-Length': 'POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
  '10,000 headers': `GET /health HTTP/1.1\r\nHost: x\r\n${'X-A: 1\r\n'.repeat(10_000)}\r\n`,
  'Transfer-Encoding with Content-Length':
    'POST /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
};

for (const [name, payload] of Object.entries(CLOSED_SILENTLY)) {
  test(`native parser: ${name} is closed at once without an answer`, async (t) => {
    const answer = await exchangeRaw(host.port, payload, 15_000);
    t.is(answer.received, '');
    t.true(answer.closed);
    t.true(answer.elapsedMs < AT_ONCE_MS, `closed after ${answer.elapsedMs} ms`);
  });
}

/**
 * Swallowed by uWS 20.30's parser as an incomplete request: nothing is written and the socket is
 * closed by uWS's 10 s idle timer (measured 11.5–12 s). Never answered, never routed.
 */
const IDLE_CLOSED = {
  'HTTP/1.0 without Host': 'GET /health HTTP/1.0\r\n\r\n',
  'HTTP/1.1 without Host': 'GET /health HTTP/1.1\r\n\r\n',
  'an absolute-form target': 'GET http://x/health HTTP/1.1\r\nHost: x\r\n\r\n',
  'a NUL in the path': 'GET /hea\u0000lth HTTP/1.1\r\nHost: x\r\n\r\n',
  'a NUL in a header': 'GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n',
};

for (const [name, payload] of Object.entries(IDLE_CLOSED)) {
  test(`native parser: ${name} gets no answer and is closed by the idle timer`, async (t) => {
    const answer = await exchangeRaw(host.port, payload, 30_000);
    t.is(answer.received, '');
    t.true(answer.closed, 'closed by the host, not left open');
    t.true(answer.elapsedMs >= 8_000 && answer.elapsedMs < 25_000, `${answer.elapsedMs} ms`);
  });
}
