/**
 * /ws/logs: one frame per read batch of a process, every process or the one named by
 * `?process_name=` (any accepted spelling, resolved once at connect); drop-oldest on overflow.
 */
import type { PluginContext } from '../../../sdk/index.js';
import { LogStreamMessage, LogStreamQuery } from '../logs/log-schemas.js';
import type { LogRouteDeps } from '../routes/log-routes.js';

/** Declare the stream; it follows the log line bus from start to stop. */
export function registerLogStream(ctx: PluginContext<unknown>, deps: LogRouteDeps): void {
  // Each client's filter is resolved once at connect (any accepted spelling → the canonical name).
  const filters = new Map<number, string>();
  const stream = ctx.stream({
    path: '/ws/logs',
    summary: 'Live log lines of every process (or one)',
    description:
      'One frame per read batch of a process: `{type: "logs", process_name, lines}`; lines are ' +
      'redacted. No replay: use GET /logs for history. A slow client loses its oldest frames. ' +
      'The text `ping` (or `{"type":"ping"}`) is answered with `pong`.',
    query: LogStreamQuery,
    message: LogStreamMessage,
    overflow: 'drop-oldest',
    onOpen: (client) => {
      const wanted = client.query.process_name;
      if (wanted !== undefined)
        filters.set(client.id, deps.resolveLogFile(wanted)?.processName ?? wanted);
    },
    onClose: (client) => {
      filters.delete(client.id);
    },
  });

  let unsubscribe: (() => void) | undefined;
  ctx.onStart(() => {
    unsubscribe = deps.bus.subscribe((batch) => {
      if (stream.clientCount === 0) return;
      stream.publish(
        { type: 'logs', process_name: batch.process_name, lines: [...batch.lines] },
        (client) => {
          const wanted = filters.get(client.id);
          return wanted === undefined || wanted === batch.process_name;
        },
      );
    });
  });
  ctx.onStop(() => {
    unsubscribe?.();
  });
}
