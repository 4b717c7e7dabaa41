/**
 * The JSON of a GET /logs answer, as body parts.
 *
 * The answer carries the text twice (`chunk`, and `log` for older clients that read that name),
 * 265 KB for the default 128 KiB tail. `JSON.stringify` of the whole object, and uWS's UTF-8
 * copy of that string, each made a string or buffer over V8's 128 KiB large-object limit: fresh
 * memory whose page faults dominated the request. Here each line-aligned piece is escaped once,
 * as a small string, and the same escaped pieces make both fields.
 */
import type { BodyParts } from '../../../sdk/index.js';
import type { LogChunk } from './log-cursor.js';

/**
 * `JSON.stringify({ process_name, cursor, chunk, reset, size, file_id, log })` in parts, byte for
 * byte, with `chunk` and `log` both the chunk's text.
 */
export function logChunkJsonParts(processName: string, read: LogChunk): BodyParts {
  // JSON.stringify of a string is `"…"`: the slice drops the quotes without copying.
  const escaped = read.pieces.map((piece) => JSON.stringify(piece).slice(1, -1));
  return [
    `{"process_name":${JSON.stringify(processName)},"cursor":${read.cursor},"chunk":"`,
    ...escaped,
    `","reset":${read.reset},"size":${read.size},"file_id":${JSON.stringify(read.file_id)},"log":"`,
    ...escaped,
    '"}',
  ];
}
