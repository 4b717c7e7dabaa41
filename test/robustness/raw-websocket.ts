/**
 * A raw WebSocket client for the fuzzer: the handshake by hand, then any frame — text with
 * invalid UTF-8, binary, oversized, fragmented, a bad opcode — which a WebSocket API would
 * refuse to send. Resolves once the server closed or the frames are out and a moment passed.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';

/** One frame to send: opcode and payload (masked as a client must). */
export interface RawFrame {
  readonly opcode: number;
  readonly payload: Buffer;
  readonly fin?: boolean;
}

function encodeFrame(frame: RawFrame): Buffer {
  const mask = randomBytes(4);
  const length = frame.payload.length;
  const header: number[] = [(frame.fin === false ? 0 : 0x80) | (frame.opcode & 0x0f)];
  if (length < 126) header.push(0x80 | length);
  else if (length < 65_536) header.push(0x80 | 126, length >> 8, length & 255);
  else {
    header.push(0x80 | 127, 0, 0, 0, 0);
    header.push((length >>> 24) & 255, (length >>> 16) & 255, (length >>> 8) & 255, length & 255);
  }
  const masked = Buffer.alloc(length);
  for (let index = 0; index < length; index += 1)
    masked[index] = (frame.payload[index] ?? 0) ^ (mask[index % 4] ?? 0);
  return Buffer.concat([Buffer.from(header), mask, masked]);
}

/** How a session went: upgraded (101) or refused with a status, and whether it hung. */
export interface SocketSession {
  readonly upgraded: boolean;
  readonly status: number | null;
  readonly hung: boolean;
}

/** Open `target` (path + query) on `origin`, send `frames`, then close. */
export function rawSocketSession(
  origin: string,
  target: string,
  frames: readonly RawFrame[],
  timeoutMs: number,
): Promise<SocketSession> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = Buffer.alloc(0);
    let status: number | null = null;
    let done = false;
    const finish = (hung: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ upgraded: status === 101, status, hung });
    };
    const timer = setTimeout(() => finish(status === null), timeoutMs);
    socket.on('error', () => finish(false));
    socket.on('close', () => finish(false));
    socket.on('connect', () => {
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    socket.on('data', (chunk: Buffer) => {
      if (status !== null) return;
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received.toString('latin1'))?.[1] ?? 0);
      if (status !== 101) return finish(false);
      for (const frame of frames) {
        if (socket.destroyed) break;
        socket.write(encodeFrame(frame));
      }
      // Give the server a moment to react (close on a protocol error), then hang up.
      setTimeout(() => finish(false), 150);
    });
  });
}
