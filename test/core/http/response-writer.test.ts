import test from 'ava';
import { connect } from 'node:net';
import { closeListenSocket, createApp, listen } from '../../../core/http/uws-app.js';
import { ResponseState } from '../../../core/http/response-state.js';
import { writeResponse, type OutgoingResponse } from '../../../core/http/response-writer.js';
import { PIECE_BYTES } from '../../../core/http/body-pieces.js';

/** A real uWS server answering GET /body with `response`, on 127.0.0.1 port 0. */
async function serve(response: OutgoingResponse) {
  const app = createApp();
  let turnsWhileWriting = 0;
  app.get('/body', (res) => {
    const state = new ResponseState(res);
    let writing = true;
    const tick = (): void => {
      if (!writing) return;
      turnsWhileWriting += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
    void writeResponse(state, response).finally(() => (writing = false));
  });
  const { socket, port } = await listen(app, '127.0.0.1', 0);
  return {
    url: `http://127.0.0.1:${port}/body`,
    port,
    turns: () => turnsWhileWriting,
    close: () => closeListenSocket(socket),
  };
}

function textOf(bytes: number): string {
  // Two-, three- and four-byte characters fall across piece boundaries.
  const unit = 'abcdefghé€😀\n';
  return unit.repeat(Math.ceil(bytes / Buffer.byteLength(unit)));
}

test('a large body in parts arrives whole, with its content-length, over several turns', async (t) => {
  const parts = [textOf(300_000), 'x', '', textOf(PIECE_BYTES * 3)];
  const expected = Buffer.from(parts.join(''));
  const server = await serve({
    status: 200,
    headers: { 'content-type': 'text/plain' },
    body: parts,
  });
  t.teardown(server.close);
  const response = await fetch(server.url);
  const body = Buffer.from(await response.arrayBuffer());
  t.is(response.headers.get('content-length'), String(expected.byteLength));
  t.true(body.equals(expected));
  t.true(
    server.turns() >= Math.floor(expected.byteLength / PIECE_BYTES) - 1,
    `${server.turns()} turns`,
  );
});

test('large string and byte bodies arrive whole; small ones as before', async (t) => {
  for (const body of [
    textOf(PIECE_BYTES * 5 + 7),
    new Uint8Array(Buffer.from(textOf(PIECE_BYTES * 2 + 1))),
    'small',
  ]) {
    const server = await serve({ status: 200, headers: {}, body });
    const response = await fetch(server.url);
    const received = Buffer.from(await response.arrayBuffer());
    server.close();
    t.true(received.equals(Buffer.from(body)));
  }
});

test('a reader that does not read at first gets every byte once it does (backpressure)', async (t) => {
  const expected = Buffer.from(textOf(8 * 1024 * 1024));
  const server = await serve({ status: 200, headers: {}, body: expected });
  t.teardown(server.close);
  const received = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write('GET /body HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      socket.pause();
      setTimeout(() => socket.resume(), 300);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
  const split = received.indexOf('\r\n\r\n');
  t.regex(received.subarray(0, split).toString('latin1'), /content-length: 8388\d{3}/i);
  t.true(received.subarray(split + 4).equals(expected));
});
