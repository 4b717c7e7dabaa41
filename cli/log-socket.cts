/**
 * The /ws/logs connection of `stackd logs -f`, kept open: reconnects with a short backoff when
 * the host goes away (a restart), refreshes the token when the host refuses it (close 1008).
 * Node 20 has no global WebSocket without a flag: undici's is used, loaded only here.
 */
import type { ApiClient } from './api.cjs';
import { CliError, EXIT } from './errors.cjs';

export interface LogSocketEvents {
  /** A frame named this process: it wrote lines. */
  wrote(processName: string): void;
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
        const name = frameProcess(event.data);
        if (name !== undefined) events.wrote(name);
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

function frameProcess(data: unknown): string | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const frame = JSON.parse(data) as { type?: unknown; process_name?: unknown };
    return frame.type === 'logs' && typeof frame.process_name === 'string'
      ? frame.process_name
      : undefined;
  } catch {
    return undefined;
  }
}
