/**
 * Backup then restore on a real link tree: the manifest records the links, a restore puts back
 * the deleted ones and, with overwrite, the changed ones; compare previews the same decisions.
 */
import {
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runBackup } from '../../../../plugins/symlinks/backup/backup.js';
import { readManifest } from '../../../../plugins/symlinks/manifest/manifest-file.js';
import { compareManifest, runRestore } from '../../../../plugins/symlinks/manifest/restore.js';

/** Three links into real files and one broken link, backed up to a manifest. */
async function backedUpTree(includeBroken: boolean) {
  const base = mkdtempSync(join(tmpdir(), 'stackd-restore-'));
  const files = join(base, 'files');
  const links = join(base, 'links');
  mkdirSync(files);
  mkdirSync(links);
  for (const name of ['a', 'b', 'c']) {
    writeFileSync(join(files, name), name);
    symlinkSync(join(files, name), join(links, `${name}.mkv`));
  }
  symlinkSync(join(files, 'gone'), join(links, 'broken.mkv'));
  const manifestPath = join(base, 'manifest.json');
  const backup = await runBackup({
    manifestPath,
    roots: [links],
    missingRoots: [],
    includeBroken,
    concurrency: 1,
    maxListed: 100,
  });
  return { base, files, links, manifestPath, backup };
}

const restoreOptions = { overwriteExisting: false, restoreBroken: false, maxListed: 100 };

test('a backup records every link, broken ones only when asked', async (t) => {
  const withBroken = await backedUpTree(true);
  t.like(withBroken.backup, { scanned_symlinks: 4, recorded_entries: 4, skipped_broken: 0 });
  const withoutBroken = await backedUpTree(false);
  t.like(withoutBroken.backup, { recorded_entries: 3, skipped_broken: 1 });
  const manifest = await readManifest(withoutBroken.manifestPath);
  t.deepEqual(
    manifest.entries.map((entry) => (entry as { link_path: string }).link_path).sort(),
    ['a.mkv', 'b.mkv', 'c.mkv'].map((name) => join(withoutBroken.links, name)),
  );
});

test('a restore puts back deleted links and leaves changed ones unless overwriting', async (t) => {
  const { files, links, manifestPath } = await backedUpTree(false);
  unlinkSync(join(links, 'a.mkv'));
  unlinkSync(join(links, 'b.mkv'));
  symlinkSync('/changed', join(links, 'b.mkv'));
  const manifest = await readManifest(manifestPath);

  const dry = await runRestore(manifestPath, manifest, { ...restoreOptions, dryRun: true });
  t.like(dry, { restored: 1, skipped_existing: 1, skipped_unchanged: 1 });
  t.throws(() => readlinkSync(join(links, 'a.mkv')), undefined, 'a dry run writes nothing');

  const kept = await runRestore(manifestPath, manifest, { ...restoreOptions, dryRun: false });
  t.like(kept, { restored: 1, skipped_existing: 1, skipped_unchanged: 1, errors: [] });
  t.is(readlinkSync(join(links, 'a.mkv')), join(files, 'a'));
  t.is(readlinkSync(join(links, 'b.mkv')), '/changed');

  const overwritten = await runRestore(manifestPath, manifest, {
    ...restoreOptions,
    overwriteExisting: true,
    dryRun: false,
  });
  t.like(overwritten, { restored: 1, skipped_unchanged: 2 });
  t.is(readlinkSync(join(links, 'b.mkv')), join(files, 'b'));
});

test('entries whose target is gone are skipped unless restore_broken; bad entries are counted', async (t) => {
  const { files, links, manifestPath } = await backedUpTree(false);
  rmSync(join(links, 'c.mkv'));
  rmSync(join(files, 'c'));
  const manifest = await readManifest(manifestPath);
  const withBad = {
    ...manifest,
    entries: [...manifest.entries, { link_path: 'relative', target: '/x' }, 7],
  };
  const skipped = await runRestore(manifestPath, withBad, { ...restoreOptions, dryRun: false });
  t.like(skipped, { skipped_nonexistent_target: 1, skipped_invalid_entries: 2, restored: 0 });
  const broken = await runRestore(manifestPath, manifest, {
    ...restoreOptions,
    restoreBroken: true,
    dryRun: false,
  });
  t.is(broken.restored, 1);
  t.is(readlinkSync(join(links, 'c.mkv')), join(files, 'c'));
});

test('a restore refuses a folder outside the allowed roots', async (t) => {
  const { links, manifestPath } = await backedUpTree(false);
  unlinkSync(join(links, 'a.mkv'));
  const allowedElsewhere = mkdtempSync(join(tmpdir(), 'stackd-restore-allowed-'));
  const result = await runRestore(manifestPath, await readManifest(manifestPath), {
    ...restoreOptions,
    dryRun: false,
    allowed: [allowedElsewhere],
  });
  t.is(result.restored, 0);
  t.is(result.errors.length, 1);
  t.is(result.errors[0]?.link_path, join(links, 'a.mkv'));
});

test('compare previews the restore with samples, capped', async (t) => {
  const { links, manifestPath } = await backedUpTree(false);
  unlinkSync(join(links, 'a.mkv'));
  const manifest = await readManifest(manifestPath);
  const preview = await compareManifest(manifestPath, manifest, {
    overwriteExisting: false,
    restoreBroken: false,
    sampleLimit: 10,
  });
  t.like(preview, { total_entries: 3, projected_restored: 1, projected_skipped_unchanged: 2 });
  t.deepEqual(preview.sample_changes.map((sample) => sample.action).sort(), [
    'create',
    'skip_unchanged',
    'skip_unchanged',
  ]);
  const capped = await compareManifest(manifestPath, manifest, {
    overwriteExisting: false,
    restoreBroken: false,
    sampleLimit: 1,
  });
  t.is(capped.sample_changes.length, 1);
  t.is(capped.projected_skipped_unchanged, 2, 'counts are not capped');
});
