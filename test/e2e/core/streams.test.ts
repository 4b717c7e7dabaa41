/** WebSocket streams: initial frame, ping/pong, fan-out, and a slow consumer that cannot hurt the host. */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import test from 'ava';
import { HELLO_PLUGIN_DIR } from '../../helpers/fixture-paths.js';
import { openSocket, request } from '../../helpers/http.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';

let host: RunningHostProcess;

test.before(async () => {
  host = await startHost({ plugins: [HELLO_PLUGIN_DIR] });
});
test.after.always(async () => {
  await host?.stop();
});

function rssKiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0);
}

/** A WebSocket client that completes the handshake and then never reads. */
function stalledClient(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    socket.once('data', (data: Buffer) => {
      if (!data.toString('latin1').startsWith('HTTP/1.1 101'))
        reject(new Error(`upgrade refused: ${data.toString('latin1')}`));
      socket.pause(); // from now on the kernel buffers fill and the server sees backpressure
      resolve(socket);
    });
    socket.on('error', () => undefined);
  });
}

test('a client gets the initial frame, then published messages', async (t) => {
  const client = await openSocket(host.url, '/ws/hello');
  t.deepEqual(JSON.parse(await client.next()), { type: 'greeting', text: 'hello on connect' });
  await request(host.url, '/hello/echo', { body: { name: 'streamer' } });
  t.deepEqual(JSON.parse(await client.next((message) => message.includes('streamer'))), {
    type: 'greeting',
    text: 'hello streamer',
  });
  client.close();
});

test('ping and {"type":"ping"} are answered with pong', async (t) => {
  const client = await openSocket(host.url, '/api/ws/hello');
  client.socket.send('ping');
  t.is(await client.next((message) => message === 'pong'), 'pong');
  const before = client.messages.filter((message) => message === 'pong').length;
  client.socket.send('{"type":"ping"}');
  await client.next(
    (message) => message === 'pong' && client.messages.filter((m) => m === 'pong').length > before,
  );
  t.is(client.messages.filter((message) => message === 'pong').length, before + 1);
  client.close();
});

test('one publish reaches every client', async (t) => {
  const clients = await Promise.all(
    Array.from({ length: 20 }, () => openSocket(host.url, '/ws/hello')),
  );
  await request(host.url, '/hello/echo', { body: { name: 'everyone' } });
  const received = await Promise.all(
    clients.map((client) => client.next((message) => message.includes('everyone'))),
  );
  t.is(received.length, 20);
  for (const client of clients) client.close();
});

test('a stalled consumer is contained: bounded memory, others keep receiving', async (t) => {
  const stalled = await Promise.all([stalledClient('/ws/hello'), stalledClient('/ws/hello')]);
  const healthy = await openSocket(host.url, '/ws/hello');
  const before = rssKiB(host.child.pid as number);
  const frames = 3000;
  const published = await request(host.url, '/hello/flood', { body: { frames, size: 32 * 1024 } });
  t.is(published.status, 200);
  // drop-oldest keeps the newest frames: the last one always arrives. 94 MiB reach the healthy
  // client; under the whole suite's load it had read 2,995 of the 3,000 frames at 30 s once.
  await healthy.next(
    (message) => message.startsWith(`{"type":"greeting","text":"${frames - 1}:`),
    75_000,
  );
  const grownMiB = (rssKiB(host.child.pid as number) - before) / 1024;
  t.true(
    grownMiB < 200,
    `host RSS grew by ${grownMiB.toFixed(1)} MiB for ${(frames * 32) / 1024} MiB published to 2 stalled clients`,
  );
  t.is((await request(host.url, '/health')).status, 200);
  for (const socket of stalled) socket.destroy();
  healthy.close();
});
