/**
 * Write responses to uWS: every write after an await is corked (one syscall, and uWS requires it
 * outside its own callbacks), nothing is written after abort, and streamed bodies respect
 * backpressure through `onWritable`.
 */
import { STATUS_CODES } from 'node:http';
import type { BodyParts } from '../../sdk/http.js';
import { joinParts } from './body-parts.js';
import type { ResponseState } from './response-state.js';

/** A fully formed response. */
export interface OutgoingResponse {
  readonly status: number;
  /** A list value is written as one header line per entry (set-cookie). */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body: string | Uint8Array | BodyParts | AsyncIterable<Uint8Array>;
  /** Close the connection after the response (used after refusing a body). */
  readonly closeConnection?: boolean;
}

const statusLines = new Map<number, string>();

function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) {
    line = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
    statusLines.set(status, line);
  }
  return line;
}

/** Write a complete response. Returns false when the client was gone. */
export async function writeResponse(
  state: ResponseState,
  response: OutgoingResponse,
): Promise<boolean> {
  if (state.finished) return false;
  const { body } = response;
  if (typeof body === 'string' || body instanceof Uint8Array || isParts(body)) {
    state.res.cork(() => {
      writeHead(state, response);
      // uWS copies the bytes during `end`, so joined parts may share one buffer; a single part
      // (a body kept whole by its route) goes as it is, without a copy.
      state.res.end(isParts(body) ? partsBody(body) : body, response.closeConnection === true);
    });
    state.finish();
    return true;
  }
  return writeStream(state, response, body);
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

function writeHead(state: ResponseState, response: OutgoingResponse): void {
  state.status = response.status;
  state.res.writeStatus(statusLine(response.status));
  for (const [name, value] of Object.entries(response.headers)) {
    for (const line of typeof value === 'string' ? [value] : value)
      state.res.writeHeader(name, line);
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
          writeHead(state, response);
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
    if (!headWritten) writeHead(state, response);
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
