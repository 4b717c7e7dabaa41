/**
 * One HTTP exchange over node:http(s). Not fetch: Node's fetch loads its bundled undici on first
 * use, which cost ~1 s of a 1.5 s `stackd status` on the loaded 2-core machine (node:http: a few
 * ms), and `stackd status` is meant to start as fast as `node -e 0`.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';

/** Connections are reused between the few requests of one command. */
const httpAgent = new HttpAgent({ keepAlive: true });
let https: { agent: HttpsAgent; request: typeof httpRequest } | undefined;

/** node:https (TLS, crypto) only for an https:// host: it cost ~6 ms of CPU on every run. */
function httpsClient(): { agent: HttpsAgent; request: typeof httpRequest } {
  if (https === undefined) {
    const module = require('node:https') as typeof import('node:https');
    https = { agent: new module.Agent({ keepAlive: true }), request: module.request };
  }
  return https;
}

export interface RawExchange {
  readonly method: string;
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  /** Give up (rejects with a TimeoutError) after this long; undefined: never. */
  readonly timeoutMs: number | undefined;
}

/** What came back: status, body text and the ETag header when there is one. */
export interface RawAnswer {
  readonly status: number;
  readonly text: string;
  readonly etag: string | undefined;
}

/** Status and body text; rejects when no answer comes (refused, unknown host, timeout). */
export function exchange(request: RawExchange): Promise<RawAnswer> {
  const secure = request.url.protocol === 'https:';
  const send = secure ? httpsClient().request : httpRequest;
  return new Promise((resolve, reject) => {
    let timedOut: Error | undefined;
    let timer: NodeJS.Timeout | undefined;
    const fail = (error: Error): void => {
      clearTimeout(timer);
      reject(timedOut ?? error);
    };
    const outgoing = send(
      request.url,
      {
        method: request.method,
        headers: {
          ...request.headers,
          ...(request.body === undefined
            ? {}
            : { 'content-length': String(Buffer.byteLength(request.body)) }),
        },
        agent: secure ? httpsClient().agent : httpAgent,
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            etag: response.headers.etag,
          });
        });
        response.on('error', fail);
      },
    );
    outgoing.on('error', fail);
    // A timer, not an AbortSignal: the signal option loads stream machinery that cost a few ms
    // of CPU on every run. Like AbortSignal.timeout it keeps no process alive by itself.
    if (request.timeoutMs !== undefined) {
      const limit = request.timeoutMs;
      timer = setTimeout(() => {
        timedOut = new Error(`no answer within ${limit} ms`);
        timedOut.name = 'TimeoutError';
        outgoing.destroy(timedOut);
      }, limit).unref();
    }
    outgoing.end(request.body);
  });
}
