/**
 * HEAD against the real host: every GET route answers it with GET's status and headers and no
 * body, and so do the 404/405 fallbacks — a body after a HEAD answer would be read by a
 * keep-alive client as the start of its next response.
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { HELLO_PLUGIN_DIR } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';

let host: RunningHostProcess;

test.before(async () => {
  host = await startHost({ plugins: [HELLO_PLUGIN_DIR] });
});
test.after.always(async () => {
  await host?.stop();
});

interface RawAnswer {
  readonly statusLine: string;
  readonly headers: Map<string, string>;
  /** Bytes received after the header block, within a grace period. */
  readonly trailing: string;
}

/** Send one raw request and read what comes back for a while (HEAD answers carry no length cue). */
function raw(target: string, method = 'HEAD'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(host.port, '127.0.0.1', () => {
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    void sleep(400).then(() => {
      socket.destroy();
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) {
        reject(new Error(`no complete answer: ${JSON.stringify(received)}`));
        return;
      }
      const [statusLine = '', ...lines] = received.slice(0, end).split('\r\n');
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
      }
      resolve({ statusLine, headers, trailing: received.slice(end + 4) });
    });
  });
}

test('HEAD on a GET route: the status and headers of GET, its length, no body', async (t) => {
  const get = await fetch(`${host.url}/health`);
  const getBody = await get.text();
  const head = await raw('/health');
  t.regex(head.statusLine, /^HTTP\/1\.1 200 /);
  t.is(head.headers.get('content-type'), get.headers.get('content-type') ?? undefined);
  t.is(head.headers.get('content-length'), String(Buffer.byteLength(getBody)));
  t.is(head.trailing, '', 'no body follows the head');
});

test('HEAD on a route with a path parameter and a query answers like its GET', async (t) => {
  const get = await fetch(`${host.url}/hello/items/7?verbose=true`);
  const getBody = await get.text();
  const head = await raw('/hello/items/7?verbose=true');
  t.regex(head.statusLine, new RegExp(`^HTTP/1\\.1 ${get.status} `));
  t.is(head.headers.get('content-length'), String(Buffer.byteLength(getBody)));
  t.is(head.trailing, '');
});

test('HEAD on an unknown path is 404 and on a POST-only path 405, neither with a body', async (t) => {
  const missing = await raw('/nope');
  t.regex(missing.statusLine, /^HTTP\/1\.1 404 /);
  t.not(missing.headers.get('content-length'), '0', 'the length GET would have');
  t.is(missing.trailing, '');
  const wrong = await raw('/hello/echo');
  t.regex(wrong.statusLine, /^HTTP\/1\.1 405 /);
  t.is(wrong.headers.get('allow'), 'POST');
  t.is(wrong.trailing, '');
});

test('a keep-alive client goes on after a HEAD answer', async (t) => {
  const head = await fetch(`${host.url}/health`, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(await head.text(), '');
  const after = await request(host.url, '/health');
  t.is(after.status, 200);
  t.is(after.body.status, 'healthy');
});

test('a 405 names HEAD beside GET', async (t) => {
  const wrongMethod = await request(host.url, '/health', { method: 'DELETE' });
  t.is(wrongMethod.status, 405);
  t.is(wrongMethod.headers.get('allow'), 'GET, HEAD');
});
