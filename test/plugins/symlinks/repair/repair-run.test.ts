/**
 * A repair run on real link trees in a temp dir: prefix rewrites (dry run and applied), links
 * with missing targets, root migrations (move, copy, existing destination) and the backup
 * manifest that undoes an applied repair.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { readManifest } from '../../../../plugins/symlinks/manifest/manifest-file.js';
import { planRepair, type RepairRequest } from '../../../../plugins/symlinks/repair/repair-plan.js';
import { runRepair, type RepairProgress } from '../../../../plugins/symlinks/repair/repair-run.js';

/** A library of links into `<base>/old`, whose files exist; `missing` links point nowhere. */
function library(files: readonly string[], missing: readonly string[] = []) {
  const base = mkdtempSync(join(tmpdir(), 'stackd-repair-run-'));
  const links = join(base, 'links');
  mkdirSync(join(base, 'old'));
  mkdirSync(join(base, 'new'));
  mkdirSync(links);
  for (const name of files) {
    writeFileSync(join(base, 'old', name), name);
    writeFileSync(join(base, 'new', name), name);
    symlinkSync(join(base, 'old', name), join(links, name));
  }
  for (const name of missing) symlinkSync(join(base, 'old', `gone-${name}`), join(links, name));
  return { base, links };
}

function request(overrides: Partial<RepairRequest>): RepairRequest {
  return {
    dry_run: false,
    include_broken: false,
    overwrite_existing: false,
    copy_instead_of_move: false,
    ...overrides,
  };
}

const options = { concurrency: 1, maxListed: 100, backupPath: null };

test('a dry run lists the rewrites and changes no link', async (t) => {
  const { base, links } = library(['a.mkv', 'b.mkv']);
  const repair = request({
    dry_run: true,
    roots: [links],
    rewrite_rules: [{ from_prefix: join(base, 'old'), to_prefix: join(base, 'new') }],
  });
  const result = await runRepair(repair, planRepair(repair, [], []), options);
  t.is(result.changed, 2);
  t.is(result.scanned_symlinks, 2);
  t.deepEqual(result.changes.map((change) => change.new_target).sort(), [
    join(base, 'new', 'a.mkv'),
    join(base, 'new', 'b.mkv'),
  ]);
  t.is(readlinkSync(join(links, 'a.mkv')), join(base, 'old', 'a.mkv'), 'untouched');
  t.is(result.backup_manifest, null);
});

test('an applied repair rewrites matching links and skips those whose target is missing', async (t) => {
  const { base, links } = library(['a.mkv'], ['broken.mkv']);
  const repair = request({
    roots: [links],
    rewrite_rules: [{ from_prefix: join(base, 'old'), to_prefix: join(base, 'new') }],
  });
  const stages: Array<RepairProgress['stage']> = [];
  const result = await runRepair(repair, planRepair(repair, [], []), {
    ...options,
    onProgress: (progress) => stages.push(progress.stage),
  });
  t.is(readlinkSync(join(links, 'a.mkv')), join(base, 'new', 'a.mkv'));
  t.is(readlinkSync(join(links, 'broken.mkv')), join(base, 'old', 'gone-broken.mkv'));
  t.like(result, { changed: 1, skipped_nonexistent_target: 1, errors: [] });
  t.is(stages[0], 'collecting');
  t.is(stages.at(-1), 'completed');
});

test('include_broken rewrites links whose target is missing too', async (t) => {
  const { base, links } = library([], ['broken.mkv']);
  const repair = request({
    include_broken: true,
    roots: [links],
    rewrite_rules: [{ from_prefix: join(base, 'old'), to_prefix: join(base, 'new') }],
  });
  const result = await runRepair(repair, planRepair(repair, [], []), options);
  t.is(result.changed, 1);
  t.is(readlinkSync(join(links, 'broken.mkv')), join(base, 'new', 'gone-broken.mkv'));
});

test('the backup manifest of an applied repair lists the old targets', async (t) => {
  const { base, links } = library(['a.mkv']);
  const manifestPath = join(base, 'undo.json');
  const repair = request({
    roots: [links],
    rewrite_rules: [{ from_prefix: join(base, 'old'), to_prefix: join(base, 'new') }],
  });
  const result = await runRepair(repair, planRepair(repair, [], []), {
    ...options,
    backupPath: manifestPath,
  });
  t.is(result.backup_manifest, manifestPath);
  const manifest = await readManifest(manifestPath);
  t.deepEqual(manifest.entries, [
    { link_path: join(links, 'a.mkv'), target: join(base, 'old', 'a.mkv') },
  ]);
});

test('a root migration moves the links, or copies them, and skips an existing destination', async (t) => {
  const { base, links } = library(['a.mkv', 'b.mkv']);
  const moved = join(base, 'moved');
  mkdirSync(moved);
  symlinkSync('/elsewhere', join(moved, 'b.mkv'));
  const move = request({ root_migrations: [{ from_root: links, to_root: moved }] });
  const result = await runRepair(move, planRepair(move, [], []), options);
  t.like(result, { moved: 1, copied: 0, skipped_existing_destination: 1 });
  t.is(readlinkSync(join(moved, 'a.mkv')), join(base, 'old', 'a.mkv'));
  t.false(existsSync(join(links, 'a.mkv')), 'moved away');
  t.is(readlinkSync(join(moved, 'b.mkv')), '/elsewhere', 'not overwritten');

  const copies = join(base, 'copies', 'deeper');
  const copy = request({
    copy_instead_of_move: true,
    root_migrations: [{ from_root: links, to_root: copies }],
  });
  const copied = await runRepair(copy, planRepair(copy, [], []), options);
  t.like(copied, { moved: 0, copied: 1 });
  t.is(readlinkSync(join(copies, 'b.mkv')), join(base, 'old', 'b.mkv'));
  t.is(readlinkSync(join(links, 'b.mkv')), join(base, 'old', 'b.mkv'), 'the source stays');
});

test('a migration from a root that is not a directory is reported, not failed', async (t) => {
  const { base } = library([]);
  const absent = join(base, 'absent');
  const migrate = request({ root_migrations: [{ from_root: absent, to_root: join(base, 'to') }] });
  const result = await runRepair(migrate, planRepair(migrate, [], []), options);
  t.deepEqual(result.missing_migration_roots, [absent]);
  t.is(result.moved, 0);
});

test('lists are capped while the counts stay exact', async (t) => {
  const { base, links } = library(['a.mkv', 'b.mkv', 'c.mkv']);
  const repair = request({
    dry_run: true,
    roots: [links],
    rewrite_rules: [{ from_prefix: join(base, 'old'), to_prefix: join(base, 'new') }],
  });
  const result = await runRepair(repair, planRepair(repair, [], []), { ...options, maxListed: 2 });
  t.is(result.changed, 3);
  t.is(result.changes.length, 2);
  t.true(result.changes_truncated);
});
