/**
 * A protected route answers 401 before reading the request body (as Fastify and hapi do): a
 * client that announces 1 MiB and sends none of it still gets its answer at once. A route that
 * read the body first would wait for bytes that never come.
 */
import { connect } from 'node:net';
import test from 'ava';
import type { RunningHostProcess } from '../../helpers/start-host.js';
import { startWithAdmin } from './auth-host.js';

let host: RunningHostProcess;
let admin = '';

test.before(async () => {
  ({ host, admin } = await startWithAdmin());
});
test.after.always(async () => {
  await host?.stop();
});

/** Send only the head of a POST announcing `length` bytes; resolve with what comes back. */
function headOnly(path: string, length: number, token?: string): Promise<string> {
  const { hostname, port } = new URL(host.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(received);
    }, 3000);
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      if (received.includes('\r\n\r\n') && /"code"/.test(received)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(received);
      }
    });
    socket.write(
      [
        `POST ${path} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        'Content-Type: application/json',
        `Content-Length: ${length}`,
        ...(token === undefined ? [] : [`Authorization: Bearer ${token}`]),
        '',
        '',
      ].join('\r\n'),
    );
  });
}

test('an anonymous 1 MiB POST gets 401 without the body being read', async (t) => {
  const answer = await headOnly('/hello/echo', 1024 * 1024);
  t.regex(answer, /^HTTP\/1\.1 401/);
  t.regex(answer, /AUTH_REQUIRED/);
});

test('with a valid token the same request waits for its body (the body is needed)', async (t) => {
  t.truthy(admin);
  const answer = await headOnly('/hello/echo', 1024 * 1024, admin);
  t.is(answer, '', 'nothing is answered while the announced body has not arrived');
});
