/**
 * Write responses to uWS: every write after an await is corked (one syscall, and uWS requires it
 * outside its own callbacks), nothing is written after abort, and streamed bodies respect
 * backpressure through `onWritable`.
 */
import type { BodyParts } from '../../sdk/http.js';
import { joinParts } from './body-parts.js';
import type { ResponseState } from './response-state.js';
import type { HttpResponse } from './uws-app.js';

/** Response headers; a list value is written as one header line per entry (set-cookie). */
export type ResponseHeaders = Readonly<Record<string, string | readonly string[]>>;

/**
 * Header lines sent with many responses, encoded once: uWS takes the bytes as they are instead of
 * converting two strings on every response.
 */
export class PreparedHeaders {
  private readonly lines: ReadonlyArray<readonly [Buffer, Buffer]>;

  constructor(headers: Readonly<Record<string, string>>) {
    this.lines = Object.entries(headers).map(([name, value]) => [
      Buffer.from(name),
      Buffer.from(value),
    ]);
  }

  writeTo(res: HttpResponse): void {
    for (const [name, value] of this.lines) res.writeHeader(name, value);
  }
}

/** A fully formed response. */
export interface OutgoingResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly body: string | Uint8Array | BodyParts | AsyncIterable<Uint8Array>;
  /** Close the connection after the response (used after refusing a body). */
  readonly closeConnection?: boolean;
}

const statusLines = new Map<number, string>();

function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) {
    // `node:http` is taken on the first status other than 200, not imported at load: only its
    // status texts are needed here, and loading it (with its client, server and agent modules)
    // was part of every boot before the host could listen.
    const { STATUS_CODES } = process.getBuiltinModule('node:http');
    line = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
    statusLines.set(status, line);
  }
  return line;
}

/**
 * Write a response. A complete body is written at once (synchronously; a promise only for a
 * streamed body). Returns false when the client was gone.
 */
export function writeResponse(
  state: ResponseState,
  response: OutgoingResponse,
): boolean | Promise<boolean> {
  if (state.finished) return false;
  const { body } = response;
  if (typeof body === 'string' || body instanceof Uint8Array || isParts(body)) {
    // uWS copies the bytes during `end`, so joined parts may share one buffer; a single part
    // (a body kept whole by its route) goes as it is, without a copy.
    writeComplete(
      state,
      response.status,
      response.headers,
      isParts(body) ? partsBody(body) : body,
      response.closeConnection === true,
    );
    return true;
  }
  return writeStream(state, response, body);
}

/** Write a whole response to an open `state` and end it. */
export function writeComplete(
  state: ResponseState,
  status: number,
  headers: ResponseHeaders | PreparedHeaders,
  body: string | Uint8Array,
  closeConnection: boolean,
): void {
  if (state.needsCork)
    state.res.cork(() => {
      writeHead(state, status, headers);
      state.res.end(body, closeConnection);
    });
  else {
    writeHead(state, status, headers);
    state.res.end(body, closeConnection);
  }
  state.finish();
}

/** Whether a body is given in parts (arrays are not async-iterable; streams are not arrays). */
export function isParts(
  body: string | Uint8Array | BodyParts | AsyncIterable<Uint8Array>,
): body is BodyParts {
  return Array.isArray(body);
}

function partsBody(parts: BodyParts): string | Uint8Array {
  const [only] = parts;
  return parts.length === 1 && only !== undefined ? only : joinParts(parts);
}

function writeHead(
  state: ResponseState,
  status: number,
  headers: ResponseHeaders | PreparedHeaders,
): void {
  state.status = status;
  // uWS writes `200 OK` itself when no status was written.
  if (status !== 200) state.res.writeStatus(statusLine(status));
  if (headers instanceof PreparedHeaders) {
    headers.writeTo(state.res);
    return;
  }
  // for-in, not Object.entries: no array of pairs per response.
  for (const name in headers) {
    const value = headers[name];
    if (typeof value === 'string') state.res.writeHeader(name, value);
    else if (value !== undefined) for (const line of value) state.res.writeHeader(name, line);
  }
}

async function writeStream(
  state: ResponseState,
  response: OutgoingResponse,
  body: AsyncIterable<Uint8Array>,
): Promise<boolean> {
  let headWritten = false;
  try {
    for await (const chunk of body) {
      if (state.finished) return false;
      let accepted = true;
      state.res.cork(() => {
        if (!headWritten) {
          writeHead(state, response.status, response.headers);
          headWritten = true;
        }
        accepted = state.res.write(chunk);
      });
      // uWS buffered the chunk either way; wait for the socket to drain before producing more.
      if (!accepted) await waitWritable(state);
    }
  } catch (error) {
    // A failing producer after the head was sent cannot become an error response: cut the stream.
    if (!state.finished) {
      state.res.cork(() => state.res.close());
      state.finish();
    }
    throw error;
  }
  if (state.finished) return false;
  state.res.cork(() => {
    if (!headWritten) writeHead(state, response.status, response.headers);
    state.res.end();
  });
  state.finish();
  return true;
}

function waitWritable(state: ResponseState): Promise<void> {
  return new Promise((resolve) => {
    if (state.finished) {
      resolve();
      return;
    }
    const onAbort = (): void => resolve();
    state.signal.addEventListener('abort', onAbort, { once: true });
    state.res.onWritable(() => {
      state.signal.removeEventListener('abort', onAbort);
      resolve();
      return true;
    });
  });
}
