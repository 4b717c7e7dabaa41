import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { LogLineBus, type LogLineBatch } from '../../../../plugins/supervisor/logs/log-line-bus.js';
import { ProcessLogWriter } from '../../../../plugins/supervisor/logs/log-writer.js';
import { chunkText, readLogChunk } from '../../../../plugins/supervisor/logs/log-cursor.js';

function setup(options: { maxBytes?: number; keep?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'stackd-writer-'));
  const file = join(dir, 'nested', 'logs', 'web.log');
  const bus = new LogLineBus();
  const batches: LogLineBatch[] = [];
  bus.subscribe((batch) => batches.push(batch));
  const writer = new ProcessLogWriter({
    file,
    maxBytes: options.maxBytes ?? 1024 * 1024,
    keep: options.keep ?? 2,
    processName: 'Web',
    bus,
  });
  return { dir, file, bus, batches, writer };
}

test('complete lines are written and published as one batch per write', async (t) => {
  const { file, batches, writer } = setup();
  writer.write(Buffer.from('one\ntwo\nthr'), 'stdout');
  t.is(readFileSync(file, 'utf8'), 'one\ntwo\n');
  t.is(batches.length, 1);
  t.like(batches[0], { process_name: 'Web', lines: ['one', 'two'] });
  writer.write(Buffer.from('ee\r\n'), 'stdout');
  t.is(readFileSync(file, 'utf8'), 'one\ntwo\nthree\n');
  t.deepEqual(batches[1]?.lines, ['three']);
  await writer.close();
});

test('stdout and stderr keep their own partial lines; flush writes them', async (t) => {
  const { file, batches, writer } = setup();
  writer.write(Buffer.from('out-start '), 'stdout');
  writer.write(Buffer.from('err line\nerr-part'), 'stderr');
  writer.write(Buffer.from('out-end\n'), 'stdout');
  t.is(readFileSync(file, 'utf8'), 'err line\nout-start out-end\n');
  writer.flush();
  t.is(readFileSync(file, 'utf8'), 'err line\nout-start out-end\nerr-part\n');
  t.is(batches.length, 3);
  await writer.close();
});

test('a multi-byte character split across chunks stays whole', async (t) => {
  const { file, writer } = setup();
  const bytes = Buffer.from('✓ ok\n');
  writer.write(bytes.subarray(0, 1), 'stdout');
  writer.write(bytes.subarray(1), 'stdout');
  t.is(readFileSync(file, 'utf8'), '✓ ok\n');
  await writer.close();
});

test('secrets are redacted in the file and on the bus', async (t) => {
  const { file, batches, writer } = setup();
  writer.write(Buffer.from('connecting with api_key=planted-secret-123\n'), 'stderr');
  t.false(readFileSync(file, 'utf8').includes('planted-secret-123'));
  t.deepEqual(batches[0]?.lines, ['connecting with api_key=[REDACTED]']);
  await writer.close();
});

test('rotation keeps exactly N older files, newest in file.1', async (t) => {
  const { file, writer } = setup({ maxBytes: 100, keep: 2 });
  for (let index = 0; index < 10; index += 1)
    writer.write(Buffer.from(`${String(index).repeat(59)}\n`), 'stdout');
  await writer.close();
  const names = readdirSync(join(file, '..')).sort();
  t.deepEqual(names, ['web.log', 'web.log.1', 'web.log.2']);
  t.is(readFileSync(file, 'utf8'), `${'9'.repeat(59)}\n`);
  t.is(readFileSync(`${file}.1`, 'utf8'), `${'8'.repeat(59)}\n`);
  t.is(readFileSync(`${file}.2`, 'utf8'), `${'7'.repeat(59)}\n`);
});

test('rotation with keep 0 starts a fresh file and keeps none', async (t) => {
  const { file, writer } = setup({ maxBytes: 10, keep: 0 });
  writer.write(Buffer.from('first line\n'), 'stdout');
  writer.write(Buffer.from('second line\n'), 'stdout');
  await writer.close();
  t.is(readFileSync(file, 'utf8'), 'second line\n');
  t.false(existsSync(`${file}.1`));
});

test('an existing file is appended to and its size counts toward rotation', async (t) => {
  const { file, writer } = setup({ maxBytes: 30, keep: 1 });
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, 'x'.repeat(25) + '\n');
  writer.write(Buffer.from('new line\n'), 'stdout');
  await writer.close();
  t.is(readFileSync(`${file}.1`, 'utf8'), `${'x'.repeat(25)}\n`);
  t.is(readFileSync(file, 'utf8'), 'new line\n');
});

test('a very long partial line is written once it passes maxLineBytes', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'stackd-writer-'));
  const file = join(dir, 'a.log');
  const writer = new ProcessLogWriter({
    file,
    maxBytes: 1024 * 1024,
    keep: 1,
    processName: 'A',
    bus: new LogLineBus(),
    maxLineBytes: 16,
  });
  writer.write(Buffer.from('x'.repeat(20)), 'stdout');
  t.is(readFileSync(file, 'utf8'), `${'x'.repeat(20)}\n`);
  await writer.close();
});

test('after close, writes are ignored and pending lines were flushed', async (t) => {
  const { file, writer } = setup();
  writer.write(Buffer.from('tail without newline'), 'stdout');
  await writer.close();
  writer.write(Buffer.from('late\n'), 'stdout');
  t.is(readFileSync(file, 'utf8'), 'tail without newline\n');
});

test('a throwing bus listener does not stop the writer or other listeners', async (t) => {
  const errors: unknown[] = [];
  const bus = new LogLineBus({ onListenerError: (error) => errors.push(error) });
  const seen: string[] = [];
  bus.subscribe(() => {
    throw new Error('listener broke');
  });
  const unsubscribe = bus.subscribe((batch) => seen.push(...batch.lines));
  const file = join(mkdtempSync(join(tmpdir(), 'stackd-writer-')), 'b.log');
  const writer = new ProcessLogWriter({ file, maxBytes: 1000, keep: 1, processName: 'B', bus });
  writer.write(Buffer.from('hello\n'), 'stdout');
  unsubscribe();
  writer.write(Buffer.from('after\n'), 'stdout');
  await writer.close();
  t.deepEqual(seen, ['hello']);
  t.is(errors.length, 2);
  t.is(readFileSync(file, 'utf8'), 'hello\nafter\n');
});

test('each batch says where it landed, in the cursors of GET /logs', async (t) => {
  const { file, batches, writer } = setup({ maxBytes: 40, keep: 1 });
  writer.write(Buffer.from('first line\n'), 'stdout');
  writer.write(Buffer.from('second\nthird\n'), 'stdout');
  const [one, two] = batches.map((batch) => batch.position);
  const read = await readLogChunk(file, { tailBytes: 1000 });
  t.deepEqual(one, { file_id: read.file_id, previous_cursor: 0, cursor: 11 });
  t.deepEqual(two, { file_id: read.file_id, previous_cursor: 11, cursor: read.cursor });
  // A reader at the first batch's cursor gets exactly the second batch's lines.
  const next = await readLogChunk(file, { tailBytes: 1000, cursor: 11, fileId: read.file_id! });
  t.is(next.pieces.join(''), 'second\nthird\n');
  // Past maxBytes the file rotates: a new file_id, starting at 0.
  writer.write(Buffer.from('after the rotation\n'), 'stdout');
  const rotated = await readLogChunk(file, { tailBytes: 1000 });
  t.not(rotated.file_id, read.file_id);
  t.deepEqual(batches[2]?.position, {
    file_id: rotated.file_id,
    previous_cursor: 0,
    cursor: rotated.cursor,
  });
  await writer.close();
});

test('a batch whose place in a shared file is unknown is published without a position', async (t) => {
  const { file, bus, batches, writer } = setup();
  const other = new ProcessLogWriter({ file, maxBytes: 1 << 20, keep: 1, processName: 'Api', bus });
  writer.write(Buffer.from('web 1\n'), 'stdout');
  other.write(Buffer.from('api 1\n'), 'stdout');
  writer.write(Buffer.from('web 2\n'), 'stdout');
  writer.write(Buffer.from('web 3\n'), 'stdout');
  t.is(readFileSync(file, 'utf8'), 'web 1\napi 1\nweb 2\nweb 3\n');
  t.deepEqual(
    batches.map((batch) => batch.position?.previous_cursor),
    [0, 6, undefined, 18],
  );
  await Promise.all([writer.close(), other.close()]);
});

test('the redacted range covers what the writer appended itself, and none of what others wrote', async (t) => {
  const { dir, file, writer } = setup();
  t.is(writer.redactedRange(), undefined, 'nothing open yet');
  const before = 'written by someone else: password=hunter2\n';
  mkdirSync(join(dir, 'nested', 'logs'), { recursive: true });
  writeFileSync(file, before);
  writer.write(Buffer.from('ours one\nours two\n'), 'stdout');
  const range = writer.redactedRange();
  t.like(range, { from: Buffer.byteLength(before), size: readFileSync(file).length });
  // Another writer appends: the writer's next append finds the file longer than it left it.
  appendFileSync(file, 'appended by hand: token=abc123\n');
  writer.write(Buffer.from('ours three\n'), 'stdout');
  t.is(writer.redactedRange()?.from, readFileSync(file).length);
  await writer.close();
  t.is(writer.redactedRange(), undefined, 'closed');
});

test('a read skips the scan only for the writer range of an unchanged file', async (t) => {
  const { dir, file, writer } = setup();
  mkdirSync(join(dir, 'nested', 'logs'), { recursive: true });
  writer.write(Buffer.from('first line\n'), 'stdout');
  // A vouched range over raw text makes the skip visible: a secret in it stays as it is.
  appendFileSync(file, 'raw password=hunter2\n');
  const size = readFileSync(file).length;
  const stats = statSync(file);
  const ours = writer.redactedRange();
  if (ours === undefined) throw new Error('writer has no range');
  const vouched = { fileId: ours.fileId, from: 0, size, mtimeMs: stats.mtimeMs };
  const skipped = await readLogChunk(file, { tailBytes: 1024 }, () => vouched);
  t.is(chunkText(skipped), 'first line\nraw password=hunter2\n');
  // The writer's own range ends before the hand-written line: that line is scanned.
  const real = await readLogChunk(file, { tailBytes: 1024 }, () => writer.redactedRange());
  t.is(chunkText(real), 'first line\nraw password=[REDACTED]\n');
  for (const stale of [
    { ...vouched, size: size - 1 },
    { ...vouched, mtimeMs: stats.mtimeMs - 1 },
    { ...vouched, fileId: 'another:file:id' },
  ]) {
    const read = await readLogChunk(file, { tailBytes: 1024 }, () => stale);
    t.is(chunkText(read), 'first line\nraw password=[REDACTED]\n', JSON.stringify(stale));
  }
  await writer.close();
});
