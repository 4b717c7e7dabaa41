/** Wire schemas of GET /logs and /ws/logs (docs/original-product.md §4). */
import { Type, type Static } from '../../../sdk/index.js';

/**
 * Default, minimum and maximum of `tail_bytes`. The minimum is 1 byte: a small tail is a valid
 * wish (a status line, a narrow terminal), and a tail shorter than a line returns no line.
 */
export const TAIL_BYTES = { default: 131_072, minimum: 1, maximum: 8_388_608 } as const;

/** Query of GET /logs: the current generation and the earlier one share the path. */
export const LogsQuery = Type.Object({
  process_name: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        'The process whose log to read. Required by the current protocol; optional in this ' +
        'schema only because the earlier-generation form (`name`) shares the path.',
    }),
  ),
  cursor: Type.Optional(
    Type.Integer({
      minimum: 0,
      description: 'The cursor of the previous answer; omit on the first request.',
    }),
  ),
  tail_bytes: Type.Integer({
    ...TAIL_BYTES,
    description: 'Bytes read from the end when starting over (no cursor, rotation, or backlog).',
  }),
  file_id: Type.Optional(
    Type.String({
      maxLength: 128,
      description:
        'The file_id of the previous answer: when the file now has another identity it was ' +
        'rotated, and the answer starts over (reset true).',
    }),
  ),
  name: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Earlier generation (deprecated): the process name.',
    }),
  ),
  lines: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 10_000,
      description:
        'How many of the last lines to return. With `process_name`: an answer that starts over ' +
        '(`reset: true`) holds only the last `lines` lines of the tail (the cursor is unchanged). ' +
        'With the earlier-generation `name`: default 100.',
    }),
  ),
  level: Type.Optional(
    Type.String({
      description:
        'Earlier generation (deprecated): keep only lines containing this text (case-insensitive).',
    }),
  ),
});
/** Type of {@link LogsQuery}. */
export type LogsQuery = Static<typeof LogsQuery>;

/** The log chunk, with the original's size and file_id (docs/original-product.md §4). */
export const LogChunkBody = Type.Object(
  {
    process_name: Type.String(),
    cursor: Type.Integer({ minimum: 0, description: 'Byte offset after the last complete line.' }),
    chunk: Type.String({ description: 'Complete, redacted lines.' }),
    reset: Type.Boolean({
      description: 'True: replace the buffer with chunk. False: append chunk to it.',
    }),
    log: Type.String({ description: 'The same text as chunk (kept for older clients).' }),
    size: Type.Integer({ minimum: 0, description: 'File size when it was read.' }),
    file_id: Type.Union([Type.String(), Type.Null()], {
      description: 'Identity of the file read; pass it back to detect rotation. Null: no file.',
    }),
  },
  { title: 'LogChunk' },
);
/** Type of {@link LogChunkBody}. */
export type LogChunkBody = Static<typeof LogChunkBody>;

/** The earlier-generation answer: the last lines, oldest first. */
export const LogLinesBody = Type.Array(Type.String(), { title: 'LogLines (deprecated)' });

/** Query of /ws/logs. */
export const LogStreamQuery = Type.Object({
  process_name: Type.Optional(
    Type.String({ minLength: 1, description: 'Only this process; all processes when absent.' }),
  ),
  format: Type.Optional(
    Type.Union([Type.Literal('text'), Type.Literal('json')], {
      description:
        'text (default, what the DUMB dashboard parses): plain text frames of lines ' +
        '`<ISO time> - <LEVEL> - <process name> subprocess: <line>` (the level the line starts with, else INFO); json: one ' +
        '`{type: "logs", process_name, lines, file_id?, previous_cursor?, cursor?}` object per ' +
        'read batch (the cursor fields where the lines landed in the log file, when known).',
    }),
  ),
});

/** One /ws/logs frame: the lines of one read batch of one process. */
export const LogStreamMessage = Type.Object(
  {
    type: Type.Literal('logs'),
    process_name: Type.String(),
    lines: Type.Array(Type.String(), { description: 'Complete, redacted lines, oldest first.' }),
    file_id: Type.Optional(
      Type.String({ description: 'The log file the lines were appended to (as GET /logs says).' }),
    ),
    previous_cursor: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'The GET /logs cursor just before these lines: a reader whose cursor for this file_id ' +
          'is this value appends the lines and takes `cursor`; any other reader reads GET /logs.',
      }),
    ),
    cursor: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'The GET /logs cursor just after these lines.',
      }),
    ),
  },
  { title: 'LogStreamFrame' },
);
/** A /ws/logs frame in either format. */
export const LogStreamFrame = Type.Union([
  LogStreamMessage,
  Type.String({ description: 'text format: one line per log line, newline-separated' }),
]);

/** Type of {@link LogStreamMessage}. */
export type LogStreamMessage = Static<typeof LogStreamMessage>;
