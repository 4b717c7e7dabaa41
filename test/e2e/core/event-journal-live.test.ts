/**
 * /ws/events live delivery through uWS topics: clients with different filters each get exactly
 * their events, and a client that stops reading is closed with 1013 instead of holding memory.
 */
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { openSocket, request } from '../../helpers/http.js';
import { FIXTURES_DIR, startHost, type RunningHostProcess } from '../../helpers/start-host.js';

const BURST_PLUGIN = join(FIXTURES_DIR, 'plugins', 'event-burst.js');

let host: RunningHostProcess;

test.before(async () => {
  host = await startHost({ plugins: [BURST_PLUGIN] });
});
test.after.always(async () => {
  await host?.stop();
});

async function burst(count: number, subject: string): Promise<void> {
  const response = await request(host.url, '/test-events/burst', { body: { count, subject } });
  if (response.status !== 200) throw new Error(`burst answered ${response.status}`);
}

async function head(): Promise<number> {
  return (await request<{ head_cursor: number }>(host.url, '/events?limit=1')).body.head_cursor;
}

test.serial(
  'live clients with different filters each get exactly their events, in order',
  async (t) => {
    const since = await head();
    const paths = {
      all: `/ws/events?since=${since}`,
      a: `/ws/events?since=${since}&subject=live-a`,
      alsoA: `/ws/events?since=${since}&kinds=test.tick&subject=live-a`,
      b: `/ws/events?since=${since}&kinds=test.tick&subject=live-b`,
    };
    const sockets = Object.fromEntries(
      await Promise.all(
        Object.entries(paths).map(async ([name, path]) => {
          const socket = await openSocket(host.url, path);
          await socket.next((message) => message.includes('"type":"live"'), 60_000);
          return [name, socket] as const;
        }),
      ),
    );
    for (let round = 0; round < 5; round += 1) {
      await burst(100, 'live-a');
      await burst(50, 'live-b');
    }
    const events = (name: string): Array<{ cursor: number; subject: string }> =>
      (sockets[name]?.messages ?? [])
        .filter((message) => !message.includes('"type"'))
        .map((message) => JSON.parse(message) as { cursor: number; subject: string });
    await eventually(() => events('all').length >= 750, { timeoutMs: 60_000, what: '750 events' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    t.is(events('all').length, 750);
    t.is(events('a').length, 500);
    t.is(events('alsoA').length, 500);
    t.is(events('b').length, 250);
    t.true(events('a').every((event) => event.subject === 'live-a'));
    t.true(events('b').every((event) => event.subject === 'live-b'));
    for (const name of Object.keys(paths)) {
      const cursors = events(name).map((event) => event.cursor);
      t.true(
        cursors.every((cursor, index) => index === 0 || cursor > (cursors[index - 1] ?? 0)),
        `${name} in order`,
      );
    }
    t.deepEqual(
      events('alsoA').map((event) => event.cursor),
      events('a').map((event) => event.cursor),
    );
    for (const socket of Object.values(sockets)) socket.close();
  },
);

/** A raw client that upgrades, waits for the live marker, then stops reading. */
function stalledClient(path: string): Promise<{ socket: Socket; received: () => Buffer }> {
  const url = new URL(host.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = Buffer.alloc(0);
    let live = false;
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (live || !received.includes('"type":"live"')) return;
      live = true;
      socket.pause(); // from now on the kernel buffers fill and the server sees backpressure
      resolve({ socket, received: () => received });
    });
    socket.once('close', () => reject(new Error('closed before live')));
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
}

/** The close code of the first close frame in a server's byte stream (after the 101 answer). */
function closeCode(stream: Buffer): number | undefined {
  let offset = stream.indexOf('\r\n\r\n') + 4;
  while (offset + 2 <= stream.length) {
    const opcode = (stream[offset] ?? 0) & 0x0f;
    let length = (stream[offset + 1] ?? 0) & 0x7f;
    let start = offset + 2;
    if (length === 126) {
      length = stream.readUInt16BE(start);
      start += 2;
    } else if (length === 127) {
      length = Number(stream.readBigUInt64BE(start));
      start += 8;
    }
    if (opcode === 8) return start + 2 <= stream.length ? stream.readUInt16BE(start) : undefined;
    offset = start + length;
  }
  return undefined;
}

test.serial(
  'a live client that stops reading is closed with 1013 and the others go on',
  async (t) => {
    const since = await head();
    const stalled = await stalledClient(`/ws/events?since=${since}&subject=flood`);
    const reader = await openSocket(host.url, `/ws/events?since=${since}&subject=flood`);
    await reader.next((message) => message.includes('"type":"live"'), 60_000);
    // About 10 MB of events: far past what the kernel buffers and the 256 KB mark hold.
    for (let round = 0; round < 10; round += 1) await burst(10_000, 'flood');
    const readerEvents = (): number =>
      reader.messages.filter((message) => !message.includes('"type"')).length;
    await eventually(() => readerEvents() >= 100_000, { timeoutMs: 90_000, what: 'the reader' });
    t.is(readerEvents(), 100_000);
    stalled.socket.resume();
    await eventually(() => closeCode(stalled.received()) !== undefined, {
      timeoutMs: 60_000,
      what: 'a close frame',
    });
    t.is(closeCode(stalled.received()), 1013);
    stalled.socket.destroy();
    reader.close();
  },
);
