/**
 * A raw HTTP client for the fuzzer: any path bytes, any body bytes, any content type, and a hard
 * timeout, so "the host never answered" is a finding and not a stuck test.
 */
import { request } from 'node:http';

/** What came back, or why nothing did. */
export type RawOutcome =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly body: string;
      /** The media type of the answer (no parameters), '' when none was sent. */
      readonly contentType: string;
    }
  | { readonly kind: 'hang' }
  | { readonly kind: 'client-refused'; readonly reason: string }
  | { readonly kind: 'connection-error'; readonly reason: string };

/** One request to `origin` (http://127.0.0.1:port). */
export interface RawRequest {
  readonly method: string;
  /** Path and query, sent as they are (percent-encodings included). */
  readonly target: string;
  readonly body?: Buffer | undefined;
  readonly contentType?: string | undefined;
  readonly token?: string | undefined;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Send and wait at most `timeoutMs` for the whole answer. */
export function sendRaw(origin: string, raw: RawRequest, timeoutMs: number): Promise<RawOutcome> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: RawOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const headers: Record<string, string> = { ...raw.headers };
    if (raw.contentType !== undefined) headers['content-type'] = raw.contentType;
    if (raw.token !== undefined) headers.authorization = `Bearer ${raw.token}`;
    if (raw.body !== undefined) headers['content-length'] = String(raw.body.length);
    let client;
    try {
      client = request({
        host: url.hostname,
        port: url.port,
        method: raw.method,
        path: raw.target,
        headers,
        agent: false,
      });
    } catch (error) {
      // Node refuses some paths itself (spaces, control characters): not the host's fault.
      resolve({ kind: 'client-refused', reason: String(error) });
      return;
    }
    const timer = setTimeout(() => {
      client.destroy();
      finish({ kind: 'hang' });
    }, timeoutMs);
    client.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        if (chunks.length < 64) chunks.push(chunk);
      });
      response.on('end', () =>
        finish({
          kind: 'answer',
          status: response.statusCode ?? 0,
          contentType: (response.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '',
          body: Buffer.concat(chunks).toString('utf8').slice(0, 2_000),
        }),
      );
      response.on('error', (error) => finish({ kind: 'connection-error', reason: String(error) }));
    });
    client.on('error', (error: NodeJS.ErrnoException) => {
      // A 413 answered early may reset a connection still sending: the answer was given.
      finish({ kind: 'connection-error', reason: error.code ?? String(error) });
    });
    client.end(raw.body);
  });
}
