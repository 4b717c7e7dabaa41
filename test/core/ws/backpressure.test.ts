/** Overflow policies of the per-client outbound queue, against a socket whose buffer we control. */
import test from 'ava';
import { OutboundQueue, type FlowSocket } from '../../../core/ws/backpressure.js';

class FakeSocket implements FlowSocket {
  buffered = 0;
  readonly sent: string[] = [];
  closedWith: [number, string] | undefined;
  send(frame: string | Buffer): number {
    const text = String(frame);
    this.sent.push(text);
    this.buffered += text.length;
    return 1;
  }
  getBufferedAmount(): number {
    return this.buffered;
  }
  end(code: number, reason: string): void {
    this.closedWith = [code, reason];
  }
}

test('frames go straight through while the buffer is under the mark', (t) => {
  const socket = new FakeSocket();
  const queue = new OutboundQueue(socket, 'drop-oldest', 4, 100);
  queue.offer('a');
  queue.offer('b');
  t.deepEqual(socket.sent, ['a', 'b']);
  t.is(queue.dropped, 0);
});

test('drop-oldest keeps the newest frames and counts the drops', (t) => {
  const socket = new FakeSocket();
  socket.buffered = 1000;
  const queue = new OutboundQueue(socket, 'drop-oldest', 3, 100);
  for (const frame of ['1', '2', '3', '4', '5']) queue.offer(frame);
  t.is(queue.queued, 3);
  t.is(queue.dropped, 2);
  socket.buffered = 0;
  queue.drain();
  t.deepEqual(socket.sent, ['3', '4', '5']);
});

test('latest-only keeps just the newest pending frame', (t) => {
  const socket = new FakeSocket();
  socket.buffered = 1000;
  const queue = new OutboundQueue(socket, 'latest-only', 99, 100);
  for (const frame of ['s1', 's2', 's3']) queue.offer(frame);
  t.is(queue.queued, 1);
  t.is(queue.dropped, 2);
  socket.buffered = 0;
  queue.drain();
  t.deepEqual(socket.sent, ['s3']);
});

test('close disconnects a slow client with 1013', (t) => {
  const socket = new FakeSocket();
  socket.buffered = 1000;
  const queue = new OutboundQueue(socket, 'close', 10, 100);
  queue.offer('x');
  t.is(socket.closedWith?.[0], 1013);
  queue.offer('y');
  t.deepEqual(socket.sent, [], 'nothing is sent after closing');
});

test('drain stops again when the buffer refills', (t) => {
  const socket = new FakeSocket();
  socket.buffered = 1000;
  const queue = new OutboundQueue(socket, 'drop-oldest', 10, 100);
  for (const frame of ['a'.repeat(60), 'b'.repeat(60), 'c'.repeat(60)]) queue.offer(frame);
  socket.buffered = 0;
  queue.drain();
  t.is(socket.sent.length, 2, 'the second frame pushed the buffer over the mark');
  t.is(queue.queued, 1);
});

test('after frames sent around the queue, a socket past the mark is closed with 1013, once', (t) => {
  const socket = new FakeSocket();
  const queue = new OutboundQueue(socket, 'close', 4, 100);
  socket.buffered = 99;
  queue.closeIfOverMark();
  t.is(socket.closedWith, undefined, 'under the mark: left open');
  socket.buffered = 100;
  queue.closeIfOverMark();
  t.deepEqual(socket.closedWith, [1013, 'client too slow: message backlog exceeded']);
  socket.closedWith = undefined;
  queue.closeIfOverMark();
  queue.offer('late');
  t.is(socket.closedWith, undefined, 'closed once');
  t.deepEqual(socket.sent, [], 'nothing is sent once closed');
});
