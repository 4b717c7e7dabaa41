/**
 * The GET /logs answer as the route builds it (file read, decoded and redacted in pieces, each
 * escaped once for both fields, joined into the body buffer shared between responses) against
 * JSON.stringify of the answer object built from the whole file with Buffer#toString and
 * redactText: byte for byte, on text that is awkward for each step.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { joinParts } from '../../../../core/http/body-parts.js';
import { redactText } from '../../../../sdk/index.js';
import { logChunkJsonParts } from '../../../../plugins/supervisor/logs/log-chunk-json.js';
import { PIECE_BYTES, readLogChunk } from '../../../../plugins/supervisor/logs/log-cursor.js';

const LF = 0x0a;
const CR = 0x0d;

function logFile(content: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), 'stackd-tail-json-')), 'app.log');
  writeFileSync(file, content);
  return file;
}

/** The answer computed from the whole file, the slow and obvious way. */
function expectedAnswer(file: string, tailBytes: number, fileId: string | null): Buffer {
  const bytes = readFileSync(file);
  const start = Math.max(0, bytes.length - tailBytes);
  let from = start;
  const before = bytes[start - 1];
  if (start > 0 && before !== LF && before !== CR) {
    const newline = bytes.indexOf(LF, start);
    from = newline === -1 ? bytes.length : newline + 1;
  }
  const lastNewline = bytes.lastIndexOf(LF);
  const end = lastNewline >= from ? lastNewline + 1 : from;
  const chunk = redactText(bytes.toString('utf8', from, end));
  return Buffer.from(
    JSON.stringify({
      process_name: 'Tail "test" \\ é',
      cursor: end,
      chunk,
      reset: true,
      size: bytes.length,
      file_id: fileId,
      log: chunk,
    }),
  );
}

async function answer(file: string, tailBytes: number): Promise<[Buffer, string | null]> {
  const read = await readLogChunk(file, { tailBytes });
  const body = Buffer.from(joinParts(logChunkJsonParts('Tail "test" \\ é', read)));
  return [body, read.file_id];
}

const awkwardLines = [
  'plain ascii line',
  'quotes " and backslashes \\ and \\" and a tab\there',
  'control \u0000\u0001\u0008\u000b\u000c\u001b\u001f and DEL \u007f',
  'a carriage return\rinside, then CRLF\r',
  'latin-1 é ü ß, CJK 漢字, emoji 😀👍🏽, joiner 👩‍💻',
  'line separators \u2028 \u2029 and </script>',
  'password=hunter2 and api_key: abc123 in one line',
  'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
  'GET https://user:s3cret@example.test/path?token=abcdef&x=1',
  'mail to someone@example.test please',
].map((line) => Buffer.from(`${line}\n`));

/** Bytes no decoder turns back into themselves: surrogates encoded as UTF-8, cut sequences. */
const invalidLine = Buffer.concat([
  Buffer.from('invalid: '),
  Buffer.from([0xed, 0xa0, 0x80]), // a lone high surrogate, as CESU-8 writes it
  Buffer.from(' cut: '),
  Buffer.from([0xf0, 0x9f, 0x98]), // the first three bytes of 😀
  Buffer.from(' stray: '),
  Buffer.from([0x80, 0xbf, 0xff]),
  Buffer.from('\n'),
]);

test('a tail of awkward lines is byte for byte JSON.stringify of the answer', async (t) => {
  const file = logFile(Buffer.concat([...awkwardLines, invalidLine, Buffer.from('partial')]));
  for (const tailBytes of [1, 40, 200, 1024, 64 * 1024]) {
    const [body, fileId] = await answer(file, tailBytes);
    t.deepEqual(body, expectedAnswer(file, tailBytes, fileId), `tail_bytes ${tailBytes}`);
  }
});

test('a tail starting inside a multi-byte character drops that line whole', async (t) => {
  const head = Buffer.from('first line\nsplit: ');
  const emoji = Buffer.from('😀'); // four bytes
  const rest = Buffer.from(' end of the split line\nlast line é\n');
  const file = logFile(Buffer.concat([head, emoji, rest]));
  const size = head.length + emoji.length + rest.length;
  // Each start in turn: before the character, on each of its four bytes, just after it.
  for (let into = 0; into <= emoji.length; into += 1) {
    const tailBytes = size - (head.length + into);
    const [body, fileId] = await answer(file, tailBytes);
    t.deepEqual(body, expectedAnswer(file, tailBytes, fileId), `start ${into} bytes into it`);
    const parsed = JSON.parse(body.toString('utf8')) as { chunk: string };
    t.false(parsed.chunk.includes('\ufffd'), 'no half character at the start');
  }
});

test('a tail over several pieces, with secrets and multi-byte text at the cuts', async (t) => {
  const lines: Buffer[] = [];
  let size = 0;
  for (let index = 0; size < 3 * PIECE_BYTES + 5000; index += 1) {
    const line = awkwardLines[index % awkwardLines.length] ?? Buffer.from('\n');
    lines.push(Buffer.from(`${index} `), line);
    size += line.length + String(index).length + 1;
  }
  lines.push(invalidLine);
  const file = logFile(Buffer.concat(lines));
  for (const tailBytes of [PIECE_BYTES - 7, PIECE_BYTES * 2 + 3, 128 * 1024]) {
    const [body, fileId] = await answer(file, tailBytes);
    t.deepEqual(body, expectedAnswer(file, tailBytes, fileId), `tail_bytes ${tailBytes}`);
    t.false(body.toString('utf8').includes('hunter2'), 'the secret is redacted');
  }
});

test('reads that overlap, and a small read after a large one, keep their own bytes', async (t) => {
  const big = logFile(Buffer.from(`${'b'.repeat(100)}\n`));
  const large = logFile(Buffer.from('large line of text\n'.repeat(4000)));
  const small = logFile(Buffer.from('one small line\n'));
  const [first, second, third] = await Promise.all([
    answer(large, 64 * 1024),
    answer(small, 64 * 1024),
    answer(big, 64 * 1024),
  ]);
  t.deepEqual(first[0], expectedAnswer(large, 64 * 1024, first[1]));
  t.deepEqual(second[0], expectedAnswer(small, 64 * 1024, second[1]));
  t.deepEqual(third[0], expectedAnswer(big, 64 * 1024, third[1]));
  // Buffers kept between requests now hold the large answer: a smaller one shows only its own.
  const [after, afterId] = await answer(small, 64 * 1024);
  t.deepEqual(after, expectedAnswer(small, 64 * 1024, afterId));
});
