/** Small HTTP and WebSocket helpers for tests (undici's fetch and WebSocket). */
import { WebSocket } from 'undici';

/** A JSON response: status, headers and parsed body. */
export interface JsonResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
  readonly text: string;
}

/** Options of {@link request}. */
export interface RequestOptions {
  readonly method?: string;
  readonly body?: unknown;
  /** Raw body text (sent as is, with JSON content type). */
  readonly rawBody?: string | Uint8Array;
  readonly token?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Send a request and parse the JSON answer (body is the text when not JSON). */
export async function request<T = any>(
  baseUrl: string,
  path: string,
  options: RequestOptions = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(new URL(path, baseUrl), {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body: body ?? null,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** An open WebSocket that records messages and its close event. */
export interface TestSocket {
  readonly socket: WebSocket;
  readonly messages: string[];
  /** Resolves on close with code and reason. */
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Wait until a message satisfies `predicate` (checks received ones first). */
  next(predicate?: (message: string) => boolean, timeoutMs?: number): Promise<string>;
  close(): void;
}

/** Open a WebSocket to `ws(s)://…` built from an http base URL and a path with query. */
export function openSocket(baseUrl: string, pathAndQuery: string): Promise<TestSocket> {
  const url = new URL(pathAndQuery, baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(url);
  const messages: string[] = [];
  const waiters = new Set<() => void>();
  socket.addEventListener('message', (event) => {
    messages.push(
      typeof event.data === 'string'
        ? event.data
        : Buffer.from(event.data as ArrayBuffer).toString('utf8'),
    );
    for (const waiter of waiters) waiter();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.addEventListener('close', (event) => {
      resolve({ code: event.code, reason: event.reason });
      for (const waiter of waiters) waiter();
    });
  });
  const next = (
    predicate: (message: string) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<string> =>
    new Promise((resolve, reject) => {
      let seen = 0;
      const check = (): void => {
        for (; seen < messages.length; seen += 1) {
          const message = messages[seen] as string;
          if (predicate(message)) {
            cleanup();
            resolve(message);
            return;
          }
        }
        if (socket.readyState === WebSocket.CLOSED) {
          cleanup();
          reject(
            new Error(`socket closed before a matching message; got ${messages.length} messages`),
          );
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `no matching message within ${timeoutMs} ms; got: ${messages.slice(-5).join(' | ')}`,
          ),
        );
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return new Promise((resolve, reject) => {
    socket.addEventListener(
      'open',
      () => resolve({ socket, messages, closed, next, close: () => socket.close() }),
      { once: true },
    );
    // A socket the server closes during the handshake still resolves, so tests can read the close code.
    socket.addEventListener(
      'close',
      () => resolve({ socket, messages, closed, next, close: () => socket.close() }),
      { once: true },
    );
    socket.addEventListener('error', () => undefined);
    setTimeout(() => reject(new Error(`WebSocket ${url.href} did not open`)), 10_000);
  });
}
