/**
 * Raw bytes over a TCP socket, for what an HTTP client refuses to send (two Content-Length
 * lines, NUL bytes, absolute-form targets): what came back, whether and how fast the host
 * closed the connection.
 */
import { connect } from 'node:net';

/** What the socket saw. */
export interface RawExchange {
  /** Everything received, as latin1 text. */
  readonly received: string;
  /** The status code of the first answer, or null when nothing came back. */
  readonly status: number | null;
  /** Whether the host closed the connection before `timeoutMs`. */
  readonly closed: boolean;
  /** Milliseconds from sending to close (or to the timeout). */
  readonly elapsedMs: number;
}

/**
 * Send `payload` to 127.0.0.1:`port` and wait for the host to close, at most `timeoutMs`. A list
 * is sent piece by piece, 50 ms apart, so the host reads each piece separately.
 */
export function exchangeRaw(
  port: number,
  payload: string | readonly string[],
  timeoutMs: number,
): Promise<RawExchange> {
  const started = Date.now();
  return new Promise((resolve) => {
    let received = '';
    const socket = connect(port, '127.0.0.1');
    const finish = (closed: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(received);
      resolve({
        received,
        status: match?.[1] === undefined ? null : Number(match[1]),
        closed,
        elapsedMs: Date.now() - started,
      });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
    const pieces = typeof payload === 'string' ? [payload] : payload;
    pieces.forEach((piece, index) => {
      if (index === 0) socket.write(piece, 'latin1');
      else setTimeout(() => socket.writable && socket.write(piece, 'latin1'), index * 50);
    });
  });
}

/** Requests a proxy in front could frame differently from the host: each must be refused. */
export const SMUGGLING_CASES: ReadonlyArray<{
  readonly name: string;
  readonly head: (path: string) => string;
  readonly status: number;
  /** Whether closing with no answer at all is also a refusal for this case. */
  readonly unansweredAllowed?: boolean;
}> = [
  {
    name: 'two conflicting Content-Length headers',
    head: (path) =>
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
      'Content-Length: 2\r\nContent-Length: 5\r\n\r\n{}GET /',
    status: 400,
  },
  {
    name: 'a Host that is no host',
    head: (path) => `GET ${path} HTTP/1.1\r\nHost: a b/c\r\n\r\n`,
    status: 400,
  },
  {
    name: 'a backslash in the path',
    head: (path) => `GET ${path}\\..\\x HTTP/1.1\r\nHost: x\r\n\r\n`,
    status: 400,
  },
  {
    name: 'headers over 64 KB',
    head: (path) => `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
    status: 431,
    // uWS 20.30 keeps at most 4 KB of a header section between two reads: when these 70 KB
    // reach it in more than one read (loopback segments at 64 KB, so that depends on timing) it
    // closes the connection with nothing written (docs/api-conventions.md). Refused and closed
    // either way; only the answer can be missing.
    unansweredAllowed: true,
  },
];
