/** Where client-given manifest paths may point: mapped from the original's paths, then confined. */
import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { HttpError } from '../../../sdk/index.js';
import { SymlinkPaths } from '../../../plugins/symlinks/paths.js';

function setup(allowed: string[] = []) {
  const dataDir = mkdtempSync(join(tmpdir(), 'stackd-symlink-paths-'));
  const storageDir = join(dataDir, 'symlink-repair');
  mkdirSync(join(storageDir, 'snapshots'), { recursive: true });
  return { dataDir, storageDir, paths: new SymlinkPaths(dataDir, storageDir, () => allowed) };
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof HttpError ? error.code : 'not an HttpError';
  }
}

test('the original /config/symlink-repair paths map into the storage folder', (t) => {
  const { storageDir, paths } = setup();
  t.is(
    paths.mapped('/config/symlink-repair/snapshots/a.json'),
    join(storageDir, 'snapshots/a.json'),
  );
  t.is(paths.mapped('/config/symlink-repair'), storageDir);
  t.is(paths.mapped('  relative.json '), join(storageDir, 'snapshots', 'relative.json'));
  t.is(paths.defaultManifest, join(storageDir, 'snapshots', 'latest.json'));
});

test('a manifest path inside the data dir or an allowed dir is accepted', (t) => {
  const other = mkdtempSync(join(tmpdir(), 'stackd-symlink-manifests-'));
  const { dataDir, paths } = setup([other]);
  t.is(paths.manifest(join(dataDir, 'x.json'), 'backup_path'), join(dataDir, 'x.json'));
  t.is(paths.manifest(join(other, 'deep', 'y.json'), 'backup_path'), join(other, 'deep', 'y.json'));
});

test('a path outside, empty, with a NUL or too long is refused naming the field', (t) => {
  const { paths } = setup();
  t.is(
    codeOf(() => paths.manifest('/etc/passwd', 'backup_path')),
    'SYMLINK_PATH_OUTSIDE',
  );
  t.is(
    codeOf(() => paths.manifest('   ', 'backup_path')),
    'SYMLINK_PATH_REQUIRED',
  );
  t.is(
    codeOf(() => paths.manifest('a\u0000b', 'backup_path')),
    'SYMLINK_PATH_INVALID',
  );
  t.is(
    codeOf(() => paths.manifest(`${'n'.repeat(300)}.json`, 'backup_path')),
    'SYMLINK_PATH_INVALID',
  );
  try {
    paths.manifest('/etc/passwd', 'manifest_path');
  } catch (error) {
    t.is((error as HttpError).field, 'manifest_path');
  }
});

test('a symlink out of the data dir does not make a path inside it', (t) => {
  const { dataDir, paths } = setup();
  symlinkSync('/etc', join(dataDir, 'escape'));
  t.is(
    codeOf(() => paths.manifest(join(dataDir, 'escape', 'x.json'), 'backup_path')),
    'SYMLINK_PATH_OUTSIDE',
  );
  t.is(
    codeOf(() => paths.manifest(join(dataDir, '..', 'x.json'), 'backup_path')),
    'SYMLINK_PATH_OUTSIDE',
  );
});

test('inSnapshots keeps the picker inside the snapshot folder, defaulting to latest.json', (t) => {
  const { dataDir, storageDir, paths } = setup();
  t.is(paths.inSnapshots(undefined, 'path'), join(storageDir, 'snapshots', 'latest.json'));
  t.is(paths.inSnapshots('b.json', 'path'), join(storageDir, 'snapshots', 'b.json'));
  t.is(
    codeOf(() => paths.inSnapshots(join(dataDir, 'x.json'), 'path')),
    'SYMLINK_PATH_OUTSIDE',
  );
});
