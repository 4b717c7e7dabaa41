/** Real webhook receivers for the notification tests: scripted answers, recorded bodies. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One received request. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

/** A receiver answering from a script (status per request, then 200), optionally slowly. */
export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  close(): Promise<void>;
}

/** Start a receiver: `answers` are consumed in order, then 200. */
export async function startReceiver(
  answers: Array<{ status: number; headers?: Record<string, string>; delayMs?: number }> = [],
  options: { delayMs?: number } = {},
): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body, at: Date.now() });
      const answer = answers.shift() ?? { status: 200 };
      const delay = answer.delayMs ?? options.delayMs ?? 0;
      setTimeout(() => response.writeHead(answer.status, answer.headers).end('ok'), delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
