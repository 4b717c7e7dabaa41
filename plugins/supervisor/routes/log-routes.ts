/** GET /logs: the cursor protocol and the earlier-generation line list. */
import {
  ErrorBody,
  InputError,
  NotFoundError,
  Type,
  defineRoute,
  jsonTextReply,
} from '../../../sdk/index.js';
import { logChunkJsonParts } from '../logs/log-chunk-json.js';
import { readLogChunk, type RedactedRange } from '../logs/log-cursor.js';
import type { LogLineBus } from '../logs/log-line-bus.js';
import { LogChunkBody, LogLinesBody, LogsQuery } from '../logs/log-schemas.js';
import { lastLinesOfChunk } from '../logs/log-chunk-lines.js';
import { readLastLines } from '../logs/log-tail-lines.js';
import { LOGS_PROCESS_NAME_REQUIRED, PROCESS_NOT_FOUND } from '../errors.js';

/** Lines the earlier-generation form returns when `lines` is not given. */
const LEGACY_LINES = 100;

/** A process's log file as the supervisor knows it: the canonical name and the file, if any. */
export interface ResolvedLogFile {
  readonly processName: string;
  readonly file: string | null;
  /** The part of the file its writer in this host redacted itself, when it has one. */
  readonly redacted?: () => RedactedRange | undefined;
}

/** What the log route and stream need from the supervisor. */
export interface LogRouteDeps {
  readonly bus: LogLineBus;
  /** The process a request names (any accepted spelling), or undefined when it is unknown. */
  resolveLogFile(processName: string): ResolvedLogFile | undefined;
}

const LOGS_DESCRIPTION = [
  'Current generation (`process_name` given): the log chunk of the cursor protocol. The first',
  'request omits `cursor` and gets the last `tail_bytes` as complete lines with `reset: true`.',
  'Later requests pass the returned `cursor` (and `file_id`) and get only the new complete lines',
  'with `reset: false`. The answer starts over (`reset: true`, the last `tail_bytes`) when the',
  'file was rotated (another `file_id`), the cursor is past its end, or more than `tail_bytes`',
  'arrived since. A trailing partial line waits for its newline. Lines are redacted. A process',
  'without a log file yet gives an empty chunk with `reset: true`.',
  '',
  'Earlier generation (deprecated; `name` given and `process_name` absent): an array of the last',
  '`lines` (default 100) log lines, filtered by the `level` text. Both generations share this one path, so one',
  'route serves both; `process_name` wins when both are given.',
].join('\n');

function resolveOrThrow(deps: LogRouteDeps, name: string, field: string): ResolvedLogFile {
  const resolved = deps.resolveLogFile(name);
  if (resolved === undefined)
    throw new NotFoundError(PROCESS_NOT_FOUND, `Process '${name}' not found`, { field });
  return resolved;
}

export function logsRoute(deps: LogRouteDeps) {
  return defineRoute({
    method: 'GET',
    path: '/logs',
    summary: 'Read a process log (cursor protocol; earlier-generation line list)',
    description: LOGS_DESCRIPTION,
    tags: ['logs'],
    schema: {
      query: LogsQuery,
      response: { 200: Type.Union([LogChunkBody, LogLinesBody]), 404: ErrorBody },
    },
    handler: async ({ query }) => {
      if (query.process_name !== undefined) {
        const { processName, file, redacted } = resolveOrThrow(
          deps,
          query.process_name,
          'process_name',
        );
        const tail = await readLogChunk(
          file,
          {
            tailBytes: query.tail_bytes,
            ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
            ...(query.file_id === undefined ? {} : { fileId: query.file_id }),
          },
          redacted,
        );
        // Only an answer that starts over is cut: one that continues must not drop new lines.
        const read =
          query.lines !== undefined && tail.reset ? lastLinesOfChunk(tail, query.lines) : tail;
        // The LogChunkBody object, encoded without one large string (see log-chunk-json.ts).
        return jsonTextReply(200, logChunkJsonParts(processName, read));
      }
      if (query.name !== undefined) {
        const { file } = resolveOrThrow(deps, query.name, 'name');
        return readLastLines(file, {
          lines: query.lines ?? LEGACY_LINES,
          ...(query.level === undefined ? {} : { level: query.level }),
        });
      }
      throw new InputError(LOGS_PROCESS_NAME_REQUIRED, 'process_name is required', {
        field: 'process_name',
      });
    },
  });
}
