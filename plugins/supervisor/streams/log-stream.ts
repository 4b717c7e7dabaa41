/**
 * /ws/logs: one frame per read batch of a process, every process or the one named by
 * `?process_name=` (any accepted spelling, resolved once at connect); drop-oldest on overflow.
 * Frames are text lines in DUMB's format by default (the dashboard drops anything else,
 * docs/decisions.md §27), or JSON objects with `?format=json`.
 */
import { isoTime } from '../../../sdk/index.js';
import { dumbLogLine } from './dumb-log-line.js';
import type { PluginContext } from '../../../sdk/index.js';
import { LogStreamFrame, LogStreamQuery } from '../logs/log-schemas.js';
import type { LogRouteDeps } from '../routes/log-routes.js';

/** Declare the stream; it follows the log line bus from start to stop. */
export function registerLogStream(ctx: PluginContext<unknown>, deps: LogRouteDeps): void {
  // Each client's filter is resolved once at connect (any accepted spelling → the canonical name).
  const filters = new Map<number, string>();
  const jsonClients = new Set<number>();
  const stream = ctx.stream({
    path: '/ws/logs',
    summary: 'Live log lines of every process (or one)',
    description:
      'One frame per read batch of a process. Default (DUMB format): a text frame of the ' +
      "batch's lines, each `<ISO time> - <LEVEL> - <process name> subprocess: <line>` (the level the line starts with, else INFO); with " +
      '`format=json`: `{type: "logs", process_name, lines, file_id, previous_cursor, cursor}`; ' +
      'the cursor fields say where the lines landed in the log file in GET /logs terms, so a ' +
      'reader keeps an exact cursor without a request per frame (absent when unknown, e.g. a ' +
      'failed write). Lines are redacted. No replay: use ' +
      'GET /logs for history. A slow client loses its oldest frames. The text `ping` (or ' +
      '`{"type":"ping"}`) is answered with `pong`.',
    query: LogStreamQuery,
    message: LogStreamFrame,
    overflow: 'drop-oldest',
    onOpen: (client) => {
      const wanted = client.query.process_name;
      if (wanted !== undefined)
        filters.set(client.id, deps.resolveLogFile(wanted)?.processName ?? wanted);
      if (client.query.format === 'json') jsonClients.add(client.id);
    },
    onClose: (client) => {
      filters.delete(client.id);
      jsonClients.delete(client.id);
    },
  });

  let unsubscribe: (() => void) | undefined;
  ctx.onStart(() => {
    unsubscribe = deps.bus.subscribe((batch) => {
      if (stream.clientCount === 0) return;
      const wants = (id: number): boolean => {
        const wanted = filters.get(id);
        return wanted === undefined || wanted === batch.process_name;
      };
      if (jsonClients.size > 0)
        stream.publish(
          {
            type: 'logs',
            process_name: batch.process_name,
            lines: [...batch.lines],
            ...batch.position,
          },
          (client) => jsonClients.has(client.id) && wants(client.id),
        );
      if (jsonClients.size < stream.clientCount) {
        const time = isoTime();
        const text = batch.lines
          .map((line) => dumbLogLine(time, batch.process_name, line))
          .join('\n');
        stream.publish(text, (client) => !jsonClients.has(client.id) && wants(client.id));
      }
    });
  });
  ctx.onStop(() => {
    unsubscribe?.();
  });
}
