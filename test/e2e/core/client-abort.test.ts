/** Clients that go away mid-body or mid-handler must not crash or wedge the host. */
import { connect, type Socket } from 'node:net';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
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

function rawSocket(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

test('a client that disconnects mid-body leaves the host serving', async (t) => {
  for (let index = 0; index < 20; index += 1) {
    const socket = await rawSocket();
    socket.write(
      'POST /hello/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"name":"bo',
    );
    socket.destroy();
  }
  const response = await request(host.url, '/hello/echo', { body: { name: 'after' } });
  t.is(response.status, 200);
  t.notRegex(host.output(), /uncaught|FATAL|Segmentation/i);
});

test('a client that disconnects while the handler runs aborts its signal', async (t) => {
  const socket = await rawSocket();
  socket.write('GET /hello/slow?ms=5000 HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, 200));
  socket.destroy();
  await eventually(() => host.output().includes('hello/slow: client aborted'), {
    what: 'the abort to reach the handler',
  });
  t.is((await request(host.url, '/health')).status, 200);
  t.is(host.child.exitCode, null, 'still running');
});
