/** Launch records asked for in one turn are written together; each is on disk when it resolves. */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { RecordBatch } from '../../../../plugins/supervisor/runtime/record-batch.js';

test('records of one turn are each whole on disk once their write resolves', async (t) => {
  const dir = join(mkdtempSync(join(tmpdir(), 'record-batch-')), 'groups');
  const batch = new RecordBatch();
  const seen: string[] = [];
  const writes = Array.from({ length: 50 }, (_, index) =>
    batch.write(join(dir, `${index}.json`), { pid: index }).then(() => {
      // Read at the moment its own write resolved: already complete.
      seen.push(readFileSync(join(dir, `${index}.json`), 'utf8'));
    }),
  );
  await Promise.all(writes);
  t.is(seen.length, 50);
  t.deepEqual(JSON.parse(readFileSync(join(dir, '7.json'), 'utf8')), { pid: 7 });
  t.is(readdirSync(dir).length, 50, 'no temp file left');
  t.is(statSync(join(dir, '7.json')).mode & 0o777, 0o600);
});

test('a record that cannot be written fails alone', async (t) => {
  const base = mkdtempSync(join(tmpdir(), 'record-batch-'));
  writeFileSync(join(base, 'file'), 'x');
  const batch = new RecordBatch();
  const good = batch.write(join(base, 'ok', '1.json'), { pid: 1 });
  const bad = batch.write(join(base, 'file', '2.json'), { pid: 2 });
  await t.throwsAsync(bad);
  await good;
  t.deepEqual(JSON.parse(readFileSync(join(base, 'ok', '1.json'), 'utf8')), { pid: 1 });
});
