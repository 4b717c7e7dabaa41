import { appendFileSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import {
  chunkText,
  PIECE_BYTES,
  planLogRead,
  readLogChunk,
} from '../../../../plugins/supervisor/logs/log-cursor.js';

function logFile(content = ''): string {
  const file = join(mkdtempSync(join(tmpdir(), 'stackd-cursor-')), 'app.log');
  writeFileSync(file, content);
  return file;
}

test('the decision table of the reference', (t) => {
  t.deepEqual(planLogRead(10_000, { cursor: 1000, tailBytes: 2000 }, 'a'), {
    start: 8000,
    reset: true,
  });
  t.deepEqual(planLogRead(10_000, { cursor: 9000, tailBytes: 2000 }, 'a'), {
    start: 9000,
    reset: false,
  });
  t.deepEqual(planLogRead(1000, { cursor: 10_000, tailBytes: 2000 }, 'a'), {
    start: 0,
    reset: true,
  });
  t.deepEqual(planLogRead(5000, { tailBytes: 2000 }, 'a'), { start: 3000, reset: true });
  t.deepEqual(planLogRead(5000, { cursor: 4000, tailBytes: 2000, fileId: 'old' }, 'new'), {
    start: 3000,
    reset: true,
  });
  t.deepEqual(planLogRead(5000, { cursor: 4000, tailBytes: 2000, fileId: 'same' }, 'same'), {
    start: 4000,
    reset: false,
  });
});

test('a missing or unknown file is an empty chunk with reset', async (t) => {
  const expected = { cursor: 0, pieces: [], reset: true, size: 0, file_id: null };
  t.deepEqual(await readLogChunk(null, { tailBytes: 1024 }), expected);
  t.deepEqual(
    await readLogChunk(join(tmpdir(), 'no-such-dir-stackd', 'x.log'), { tailBytes: 1024 }),
    expected,
  );
});

test('a partial last line waits; the secret in it is redacted once complete', async (t) => {
  const file = logFile('safe line\nCookie: session=partial');
  const first = await readLogChunk(file, { tailBytes: 1024 });
  t.is(chunkText(first), 'safe line\n');
  t.is(first.cursor, 10);
  t.true(first.reset);
  t.is(typeof first.file_id, 'string');

  appendFileSync(file, '-value\n');
  const second = await readLogChunk(file, {
    tailBytes: 1024,
    cursor: first.cursor,
    fileId: first.file_id ?? '',
  });
  t.is(chunkText(second), 'Cookie: [REDACTED]\n');
  t.false(second.reset);
  t.is(second.cursor, second.size);
  t.is(second.file_id, first.file_id);
});

test('a cursor inside a line skips to the next complete line', async (t) => {
  const file = logFile('first\nCookie: x=1\nlast\n');
  const chunk = await readLogChunk(file, { tailBytes: 1024, cursor: 10 });
  t.is(chunkText(chunk), 'last\n');
  t.false(chunk.reset);
  t.is(chunk.cursor, chunk.size);
});

test('a cursor inside a trailing partial line gives nothing and the snapshot size', async (t) => {
  const file = logFile('done\nstill writing');
  const chunk = await readLogChunk(file, { tailBytes: 1024, cursor: 8 });
  t.is(chunkText(chunk), '');
  t.is(chunk.cursor, chunk.size);
});

test('a tail never starts mid-line and is bounded by tail_bytes', async (t) => {
  const lines = Array.from({ length: 200 }, (_, index) => `line ${String(index).padStart(4, '0')}`);
  const file = logFile(`${lines.join('\n')}\n`);
  const chunk = await readLogChunk(file, { tailBytes: 1024 });
  t.true(chunk.reset);
  t.true(Buffer.byteLength(chunkText(chunk)) <= 1024);
  t.true(chunkText(chunk).startsWith('line '));
  t.true(chunkText(chunk).endsWith('line 0199\n'));
  t.is(chunk.cursor, chunk.size);
});

test('an incremental read returns only new complete lines; nothing new is an empty chunk', async (t) => {
  const file = logFile('a\nb\n');
  const first = await readLogChunk(file, { tailBytes: 1024 });
  const idle = await readLogChunk(file, { tailBytes: 1024, cursor: first.cursor });
  t.deepEqual([chunkText(idle), idle.reset, idle.cursor], ['', false, first.cursor]);
  appendFileSync(file, 'c\nd');
  const next = await readLogChunk(file, { tailBytes: 1024, cursor: first.cursor });
  t.deepEqual([chunkText(next), next.reset, next.cursor], ['c\n', false, 6]);
});

test('a cursor past the end (the file was truncated) starts over', async (t) => {
  const file = logFile('one\ntwo\n');
  const chunk = await readLogChunk(file, { tailBytes: 1024, cursor: 5000 });
  t.deepEqual([chunkText(chunk), chunk.reset, chunk.cursor], ['one\ntwo\n', true, 8]);
});

test('a backlog larger than tail_bytes starts over at the tail', async (t) => {
  const file = logFile('start\n');
  appendFileSync(file, `${'x'.repeat(100)}\n`.repeat(50));
  const chunk = await readLogChunk(file, { tailBytes: 1024, cursor: 6 });
  t.true(chunk.reset);
  t.true(Buffer.byteLength(chunkText(chunk)) <= 1024);
  t.is(chunk.cursor, chunk.size);
});

test('rotation is detected by file identity even when the new file is bigger', async (t) => {
  const file = logFile('old 1\nold 2\n');
  const first = await readLogChunk(file, { tailBytes: 4096 });
  renameSync(file, `${file}.1`);
  writeFileSync(file, 'new line one\nnew line two\nnew line three\n');
  const after = await readLogChunk(file, {
    tailBytes: 4096,
    cursor: first.cursor,
    fileId: first.file_id ?? '',
  });
  t.true(after.reset);
  t.not(after.file_id, first.file_id);
  t.is(chunkText(after), 'new line one\nnew line two\nnew line three\n');
  t.is(after.cursor, after.size);
});

test('a real rollover then 16 KB of new data with a 1 KiB tail: at most 1 KiB, reset', async (t) => {
  const file = logFile('before\n');
  const first = await readLogChunk(file, { tailBytes: 1024 });
  renameSync(file, `${file}.1`);
  writeFileSync(file, `${'y'.repeat(63)}\n`.repeat(256));
  const after = await readLogChunk(file, {
    tailBytes: 1024,
    cursor: first.cursor,
    fileId: first.file_id ?? '',
  });
  t.true(after.reset);
  t.true(Buffer.byteLength(chunkText(after)) <= 1024);
  t.true(chunkText(after).length > 0);
});

test('multi-byte characters and invalid bytes decode without breaking the cursor', async (t) => {
  const file = logFile('');
  appendFileSync(file, Buffer.concat([Buffer.from('héllo ✓\n'), Buffer.from([0xff, 0x0a])]));
  const chunk = await readLogChunk(file, { tailBytes: 1024 });
  t.is(chunkText(chunk), 'héllo ✓\n\uFFFD\n');
  t.is(chunk.cursor, chunk.size);
});

test('a large chunk comes in line-aligned pieces that never split a line or a character', async (t) => {
  const file = logFile('');
  const lines: string[] = [];
  for (let index = 0; index < 3000; index += 1)
    // `hunter0000` has the length of `[REDACTED]`: redaction keeps every piece's size.
    lines.push(
      `${index} ${'é✓😀'.repeat(index % 7)} token=hunter${String(index).padStart(4, '0')}`,
    );
  // One line longer than a piece: it must stay whole, as a piece of its own.
  lines.splice(1500, 0, 'z'.repeat(PIECE_BYTES + 100));
  writeFileSync(file, `${lines.join('\n')}\n`);
  const chunk = await readLogChunk(file, { tailBytes: 1 << 20 });
  t.true(chunk.pieces.length > 3);
  t.is(
    chunkText(chunk),
    lines.map((line) => `${line.replace(/hunter\d{4}/, '[REDACTED]')}\n`).join(''),
  );
  for (const piece of chunk.pieces) {
    t.true(piece.endsWith('\n'));
    const bytes = Buffer.byteLength(piece);
    t.true(bytes <= PIECE_BYTES || piece.indexOf('\n') === piece.length - 1, `${bytes} bytes`);
  }
  t.true(chunk.pieces.includes(`${'z'.repeat(PIECE_BYTES + 100)}\n`));
});
