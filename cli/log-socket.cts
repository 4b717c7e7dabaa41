/**
 * The /ws/logs connection of `stackd logs -f`, kept open: reconnects with a short backoff when
 * the host goes away (a restart), refreshes the token when the host refuses it (close 1008).
 * Node 20 has no global WebSocket without a flag: undici's is used, loaded only here.
 */
import type { ApiClient } from './api.cjs';
import { CliError, EXIT } from './errors.cjs';
import type { LogFrame } from './log-follower.cjs';

export interface LogSocketEvents {
  /** A process wrote lines (with where they sit in its log file, when the host says). */
  frame(frame: LogFrame): void;
  /** Connected (again): read whatever was written meanwhile. */
  connected(first: boolean): void;
  /** The connection dropped; it is being retried. */
  lost(): void;
}

/** Keep a /ws/logs connection open until the process exits; rejects only on a fatal error. */
export async function followSocket(
  api: ApiClient,
  processName: string | undefined,
  events: LogSocketEvents,
): Promise<never> {
  const { WebSocket } = require('undici') as typeof import('undici');
  let first = true;
  let delay = 100;
  for (;;) {
    const url = new URL(`${api.baseUrl.replace(/^http/, 'ws')}/ws/logs`);
    url.searchParams.set('format', 'json');
    if (processName !== undefined) url.searchParams.set('process_name', processName);
    const token = api.accessToken();
    if (token !== undefined) url.searchParams.set('token', token);
    const closeCode = await new Promise<number>((resolve) => {
      const socket = new WebSocket(url.toString());
      socket.addEventListener('open', () => {
        delay = 100;
        events.connected(first);
        first = false;
      });
      socket.addEventListener('message', (event) => {
        const frame = parseFrame(event.data);
        if (frame !== undefined) events.frame(frame);
      });
      socket.addEventListener('close', (event) => resolve(event.code));
      socket.addEventListener('error', () => undefined);
    });
    if (closeCode === 1008 && !(await api.refresh()))
      throw new CliError(
        `not authorised at ${api.hostPort}: run \`stackd login\` (or pass a valid --token)`,
        EXIT.unauthorised,
      );
    if (!first) events.lost();
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(1000, delay * 2);
  }
}

/** A `logs` frame, its cursor fields kept only when they have the right types. */
function parseFrame(data: unknown): LogFrame | undefined {
  if (typeof data !== 'string') return undefined;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(data) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { process_name: name, lines } = parsed;
  if (parsed.type !== 'logs' || typeof name !== 'string' || !Array.isArray(lines)) return undefined;
  if (!lines.every((line): line is string => typeof line === 'string')) return undefined;
  const { file_id: fileId, previous_cursor: previous, cursor } = parsed;
  if (typeof fileId === 'string' && Number.isInteger(previous) && Number.isInteger(cursor))
    return {
      process_name: name,
      lines,
      file_id: fileId,
      previous_cursor: previous as number,
      cursor: cursor as number,
    };
  return { process_name: name, lines };
}
