/**
 * /ws/status: a frame on connect, on every status change and every `interval` seconds
 * (`?interval=` float, clamped to 0.5–10, unparsable → 2). Only the newest frame matters, so a
 * slow client gets the latest one (overflow `latest-only`).
 */
import type { PluginContext, ProcessState } from '../../../sdk/index.js';
import { statusFrame } from '../views/process-view.js';
import { StatusFrame, StatusStreamQuery } from '../schemas.js';

const DEFAULT_INTERVAL_S = 2;

/** `interval` query text → seconds within 0.5–10. */
export function parseInterval(raw: string | undefined): number {
  const value = raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value)) return DEFAULT_INTERVAL_S;
  return Math.min(10, Math.max(0.5, value));
}

/** Declare the stream; returns the function that publishes a frame to every client. */
export function registerStatusStream(
  ctx: PluginContext<unknown>,
  states: () => ProcessState[],
): () => void {
  const stream = ctx.stream({
    path: '/ws/status',
    summary: 'Live process status',
    description:
      'Frames `{type:"status", running:[names], processes:[{process_name, status, pid, ' +
      'restarts, uptime_s?, reason?}]}`: on connect, on every change, and every `interval` ' +
      'seconds (0.5–10, default 2).',
    query: StatusStreamQuery,
    message: StatusFrame,
    overflow: 'latest-only',
    onOpen: (client) => {
      client.send(statusFrame(states()));
      const timer = setInterval(
        () => client.send(statusFrame(states())),
        parseInterval(client.query.interval) * 1000,
      );
      timer.unref();
      client.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
    },
  });
  return () => stream.publish(statusFrame(states()));
}
