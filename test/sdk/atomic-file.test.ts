import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { writeFileAtomic } from '../../sdk/atomic-file.js';

const dir = (): string => mkdtempSync(join(tmpdir(), 'atomic-'));

test('writes the content and leaves no temp file', async (t) => {
  const folder = dir();
  await writeFileAtomic(join(folder, 'a', 'b.json'), '{"x":1}');
  t.is(readFileSync(join(folder, 'a', 'b.json'), 'utf8'), '{"x":1}');
  t.deepEqual(readdirSync(join(folder, 'a')), ['b.json']);
});

test('keeps the mode of the file it replaces, or uses the one given', async (t) => {
  const folder = dir();
  const file = join(folder, 'secret');
  writeFileSync(file, 'old');
  chmodSync(file, 0o600);
  await writeFileAtomic(file, 'new');
  t.is(statSync(file).mode & 0o777, 0o600);
  await writeFileAtomic(join(folder, 'other'), 'x', { mode: 0o640 });
  t.is(statSync(join(folder, 'other')).mode & 0o777, 0o640);
});

test('a failed write leaves the old file untouched', async (t) => {
  const folder = dir();
  const file = join(folder, 'keep.json');
  writeFileSync(file, 'original');
  await t.throwsAsync(writeFileAtomic(join(file, 'not-a-dir', 'x'), 'y'));
  t.is(readFileSync(file, 'utf8'), 'original');
});
