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
  const escaped = read.pieces.map(escapeJsonText);
  return [
    `{"process_name":${JSON.stringify(processName)},"cursor":${read.cursor},"chunk":"`,
    ...escaped,
    `","reset":${read.reset},"size":${read.size},"file_id":${JSON.stringify(read.file_id)},"log":"`,
    ...escaped,
    '"}',
  ];
}

/**
 * Every character JSON.stringify escapes in a string except the line feed: a quote, a
 * backslash, the other control characters and lone surrogates.
 */
// eslint-disable-next-line no-control-regex -- the control characters JSON escapes are what it finds
const ESCAPED_BESIDES_LF = /["\\\u0000-\u0009\u000b-\u001f\ud800-\udfff]/;

/**
 * The text as it stands between a JSON string's quotes, equal to `JSON.stringify(text)` without
 * them. Most log text holds nothing to escape but its line feeds: then one search for anything
 * else and one replace of the line feeds cost about half of V8's JSON escaping, character by
 * character (32 KiB of plain log lines, on the 2-core bench machine: ~70 against ~110 µs).
 */
export function escapeJsonText(text: string): string {
  if (!ESCAPED_BESIDES_LF.test(text)) return text.replaceAll('\n', '\\n');
  // JSON.stringify of a string is `"…"`: the slice drops the quotes without copying.
  return JSON.stringify(text).slice(1, -1);
}
