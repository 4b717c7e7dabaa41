/** The manifest pickers: regular files directly in a folder, newest first, and backup names. */
import { mkdirSync, mkdtempSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import {
  backupPattern,
  listFiles,
} from '../../../../plugins/symlinks/manifest/manifest-listing.js';

test('lists regular files only, newest first, with size and time', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'stackd-listing-'));
  writeFileSync(join(dir, 'old.json'), '{}');
  writeFileSync(join(dir, 'new.json'), '{"a":1}');
  utimesSync(join(dir, 'old.json'), 1_000, 1_000);
  utimesSync(join(dir, 'new.json'), 2_000, 2_000);
  writeFileSync(join(dir, '.hidden.json'), '{}');
  writeFileSync(join(dir, 'bad name.json'), '{}');
  mkdirSync(join(dir, 'folder.json'));
  const outside = mkdtempSync(join(tmpdir(), 'stackd-listing-out-'));
  writeFileSync(join(outside, 'secret.json'), '{}');
  symlinkSync(join(outside, 'secret.json'), join(dir, 'escape.json'));
  const files = await listFiles(dir);
  t.deepEqual(
    files.map((file) => [file.name, file.size_bytes, file.modified_at]),
    [
      ['new.json', 7, 2_000],
      ['old.json', 2, 1_000],
    ],
  );
  t.is(files[0]?.path, join(dir, 'new.json'));
});

test('a missing folder lists nothing; a pattern filters names', async (t) => {
  t.deepEqual(await listFiles('/nonexistent/stackd/folder'), []);
  const dir = mkdtempSync(join(tmpdir(), 'stackd-listing-'));
  writeFileSync(join(dir, 'radarr-1.json'), '{}');
  writeFileSync(join(dir, 'sonarr-1.json'), '{}');
  const names = (await listFiles(dir, /^radarr-/)).map((file) => file.name);
  t.deepEqual(names, ['radarr-1.json']);
});

test("a service's backup pattern turns time tokens into wildcards", (t) => {
  const { glob, regex } = backupPattern('/b/{process_slug}-{timestamp}.json', 'Radarr 4K');
  t.is(glob, 'radarr-4k-*.json');
  t.true(regex.test('radarr-4k-20260102T030405Z.json'));
  t.false(regex.test('radarr-4k-20260102T030405Z.jsonx'));
  t.false(regex.test('sonarr-20260102T030405Z.json'));
  // Dots in the template are literal, not "any character".
  t.false(backupPattern('/b/{date}.json', 'x').regex.test('20260102xjson'));
});
