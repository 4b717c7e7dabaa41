import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
  chmodSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { writeFileAtomic, writeFilesAtomic } from '../../sdk/atomic-file.js';

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

test('many files are written at once, each whole, with their outcomes in order', async (t) => {
  const folder = dir();
  const outcomes = await writeFilesAtomic(
    [
      { path: join(folder, 'g', '1.json'), data: 'one' },
      { path: join(folder, 'g', '2.json'), data: 'two' },
      { path: join(folder, 'h', '3.json'), data: 'three' },
    ],
    { mode: 0o600 },
  );
  t.deepEqual(
    outcomes.map((outcome) => outcome.status),
    ['fulfilled', 'fulfilled', 'fulfilled'],
  );
  t.deepEqual(readdirSync(join(folder, 'g')).sort(), ['1.json', '2.json']);
  t.is(readFileSync(join(folder, 'g', '2.json'), 'utf8'), 'two');
  t.is(readFileSync(join(folder, 'h', '3.json'), 'utf8'), 'three');
  t.is(statSync(join(folder, 'g', '1.json')).mode & 0o777, 0o600);
});

test('one failed file of many fails alone and leaves no temp file', async (t) => {
  const folder = dir();
  writeFileSync(join(folder, 'plain'), 'x');
  mkdirSync(join(folder, 'taken.json'));
  const outcomes = await writeFilesAtomic([
    { path: join(folder, 'ok.json'), data: 'ok' },
    { path: join(folder, 'taken.json'), data: 'over a directory' },
  ]);
  t.is(outcomes[0]?.status, 'fulfilled');
  t.is(outcomes[1]?.status, 'rejected');
  t.is(readFileSync(join(folder, 'ok.json'), 'utf8'), 'ok');
  t.deepEqual(readdirSync(folder).sort(), ['ok.json', 'plain', 'taken.json']);
  const blocked = await writeFilesAtomic([{ path: join(folder, 'plain', 'x.json'), data: 'y' }]);
  t.is(blocked[0]?.status, 'rejected', 'a folder that cannot be made fails its files');
});
