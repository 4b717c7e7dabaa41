import test from 'ava';
import { Value } from '@sinclair/typebox/value';
import { joinParts } from '../../../../core/http/body-parts.js';
import {
  escapeJsonText,
  logChunkJsonParts,
} from '../../../../plugins/supervisor/logs/log-chunk-json.js';
import { chunkText, type LogChunk } from '../../../../plugins/supervisor/logs/log-cursor.js';
import { LogChunkBody } from '../../../../plugins/supervisor/logs/log-schemas.js';

function chunkOf(pieces: string[], fileId: string | null = '803:1a2b:18c'): LogChunk {
  return {
    cursor: 4242,
    pieces,
    reset: pieces.length % 2 === 0,
    size: 9000,
    file_id: fileId,
  };
}

function reference(processName: string, read: LogChunk): Buffer {
  const { cursor, reset, size, file_id } = read;
  const chunk = chunkText(read);
  return Buffer.from(
    JSON.stringify({ process_name: processName, cursor, chunk, reset, size, file_id, log: chunk }),
  );
}

const awkward = [
  'plain ascii line\n',
  'quotes " and backslashes \\ and a tab\t\n',
  'control \u0000\u0001\u001f and DEL \u007f\n',
  'latin-1 é ü ß, CJK 漢字, emoji 😀👍🏽\n',
  'line separators \u2028 \u2029 and </script>\n',
  'a lone surrogate \ud800 stays escaped\n',
  '\r\n',
];

function encode(processName: string, read: LogChunk): Buffer {
  return Buffer.from(joinParts(logChunkJsonParts(processName, read)));
}

test('the bytes equal JSON.stringify of the answer object, for awkward text', (t) => {
  for (let count = 0; count <= awkward.length; count += 1) {
    const read = chunkOf(awkward.slice(0, count));
    for (const name of ['Sonarr', 'name "with" quotes \\ é']) {
      const bytes = encode(name, read);
      t.deepEqual(bytes, reference(name, read));
    }
  }
  const nullId = chunkOf(awkward, null);
  t.deepEqual(encode('x', nullId), reference('x', nullId));
});

test('the answer parses to a LogChunk body with the text twice', (t) => {
  const read = chunkOf(['one\n', 'two é\n', 'three 😀\n']);
  const parsed: unknown = JSON.parse(encode('Radarr', read).toString('utf8'));
  t.true(Value.Check(LogChunkBody, parsed));
  t.like(parsed, { chunk: 'one\ntwo é\nthree 😀\n', log: 'one\ntwo é\nthree 😀\n', cursor: 4242 });
});

test('escapeJsonText equals JSON.stringify without its quotes, on every ASCII character and surrogates', (t) => {
  const plainLines = 'INFO request 1 GET /api/v3/series handled in 3 ms\n'.repeat(50);
  const samples = [
    '',
    '\n',
    plainLines,
    `${plainLines}no final line feed`,
    ...awkward,
    'a pair of surrogates 😀 and a lone high \ud83d then text\n',
    'a lone low \ude00\n',
    'é ü 漢字 \u2028\u2029\u007f\n',
  ];
  for (let code = 0; code < 0x80; code += 1)
    samples.push(`${plainLines}${String.fromCharCode(code)}\n`, String.fromCharCode(code));
  for (const text of samples) t.is(escapeJsonText(text), JSON.stringify(text).slice(1, -1), text);
});
