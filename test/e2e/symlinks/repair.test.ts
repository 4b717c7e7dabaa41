/** Repair against a real tree: preview, apply atomically, idempotent, migrations, refusals. */
import { existsSync, lstatSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { request } from '../../helpers/http.js';
import { linkTree, startSymlinkHost } from './support.js';

test('dry run previews, apply rewrites, a second apply changes nothing', async (t) => {
  const tree = linkTree();
  const host = await startSymlinkHost([tree.links]);
  t.teardown(() => host.stop());
  const rule = { from_prefix: `${tree.oldRoot}/`, to_prefix: tree.newRoot };
  const preview = await request(host.url, '/process/symlink-repair', {
    body: { rewrite_rules: [rule], roots: [tree.links], include_broken: false },
  });
  t.is(preview.status, 200, preview.text);
  t.like(preview.body, {
    dry_run: true,
    changed: 2,
    skipped_nonexistent_target: 1,
    skipped_unchanged: 2,
    scanned_symlinks: 5,
  });
  t.is(
    readlinkSync(join(tree.links, 'movies', 'a.mkv')),
    join(tree.oldRoot, 'a.mkv'),
    'nothing changed',
  );
  t.true(
    preview.body.changes.every(
      (change: { matched_rule: unknown }) => typeof change.matched_rule === 'object',
    ),
  );

  const applied = await request(host.url, '/process/symlink-repair', {
    body: {
      rewrite_rules: [rule],
      roots: [tree.links],
      dry_run: false,
      backup_path: '/config/symlink-repair/snapshots/repair-backup.json',
    },
  });
  t.is(applied.status, 200, applied.text);
  t.like(applied.body, { dry_run: false, changed: 3 });
  t.is(readlinkSync(join(tree.links, 'movies', 'a.mkv')), join(tree.newRoot, 'a.mkv'));
  t.is(
    readlinkSync(join(tree.links, 'shows', 'season 1', 'name with\nnewline.mkv')),
    join(tree.newRoot, 'c.mkv'),
  );
  t.is(
    readlinkSync(join(tree.links, 'movies', 'relative.mkv')),
    '../../old/a.mkv',
    'relative targets untouched',
  );
  t.true(existsSync(join(host.dataDir, 'symlink-repair', 'snapshots', 'repair-backup.json')));
  t.is(
    applied.body.backup_manifest,
    join(host.dataDir, 'symlink-repair', 'snapshots', 'repair-backup.json'),
  );

  const again = await request(host.url, '/process/symlink-repair', {
    body: { rewrite_rules: [rule], roots: [tree.links], dry_run: false },
  });
  t.like(again.body, { changed: 0, skipped_unchanged: 5 });

  // The repair's backup restores the old targets (undo).
  const undo = await request(host.url, '/process/symlink-manifest/restore', {
    body: { manifest_path: 'repair-backup.json', dry_run: false, overwrite_existing: true },
  });
  t.is(undo.status, 200, undo.text);
  t.is(undo.body.restored, 3);
  t.is(readlinkSync(join(tree.links, 'movies', 'a.mkv')), join(tree.oldRoot, 'a.mkv'));
});

test('root migration moves links keeping relative paths; copy keeps the sources', async (t) => {
  const tree = linkTree();
  const host = await startSymlinkHost([tree.links]);
  t.teardown(() => host.stop());
  const target = join(tree.base, 'migrated');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(target);
  const copied = await request(host.url, '/process/symlink-repair', {
    body: {
      root_migrations: [{ from_root: join(tree.links, 'movies'), to_root: target }],
      copy_instead_of_move: true,
      dry_run: false,
    },
  });
  t.is(copied.status, 200, copied.text);
  t.like(copied.body, { copied: 3, moved: 0 });
  t.true(lstatSync(join(target, 'a.mkv')).isSymbolicLink());
  t.true(lstatSync(join(tree.links, 'movies', 'a.mkv')).isSymbolicLink(), 'source kept');
  const moved = await request(host.url, '/process/symlink-repair', {
    body: {
      root_migrations: [{ from_root: join(tree.links, 'movies'), to_root: target }],
      dry_run: false,
    },
  });
  t.like(moved.body, { moved: 0, skipped_existing_destination: 3 }, 'existing destinations kept');
});

test('refusals: no rule 400, unknown preset 400, a root that is not a directory 400 naming it', async (t) => {
  const tree = linkTree();
  const host = await startSymlinkHost([tree.links]);
  t.teardown(() => host.stop());
  const none = await request(host.url, '/process/symlink-repair', { body: {} });
  t.is(none.status, 400);
  t.is(none.body.code, 'SYMLINK_NO_RULES');
  const preset = await request(host.url, '/process/symlink-repair', {
    body: { presets: ['nope'] },
  });
  t.is(preset.status, 400);
  t.is(preset.body.field, 'presets');
  const badRoot = await request(host.url, '/process/symlink-repair', {
    body: { presets: ['decypharr_beta_consolidated'], roots: [tree.links, 'relative/path'] },
  });
  t.is(badRoot.status, 400);
  t.is(badRoot.body.field, 'roots[1]');
  const outside = await request(host.url, '/process/symlink-repair', {
    body: {
      presets: ['decypharr_beta_consolidated'],
      roots: [tree.links],
      dry_run: false,
      backup_path: '/etc/evil.json',
    },
  });
  t.is(outside.status, 400);
  t.is(outside.body.field, 'backup_path');
  t.false(outside.text.includes('/etc/evil.json'), 'the outside path is not echoed');
});

test('allowed_roots confines what a repair may touch', async (t) => {
  const tree = linkTree();
  const confined = await startSymlinkHost([tree.links], {
    stackd: { symlinks: { allowed_roots: [tree.links] } },
  });
  t.teardown(() => confined.stop());
  const outside = await request(confined.url, '/process/symlink-repair', {
    body: { presets: ['decypharr_beta_consolidated'], roots: [tree.oldRoot] },
  });
  t.is(outside.status, 400);
  t.is(outside.body.code, 'SYMLINK_ROOT_NOT_ALLOWED');
  t.is(outside.body.field, 'roots[0]');
  const inside = await request(confined.url, '/process/symlink-repair', {
    body: { presets: ['decypharr_beta_consolidated'], roots: [join(tree.links, 'movies')] },
  });
  t.is(inside.status, 200, inside.text);
});

test("a crash's leftover temp link is kept by a dry run and removed by the next apply", async (t) => {
  const tree = linkTree();
  // What a crash between a replacement's symlink and its rename leaves: the new target, which no
  // rule matches any more.
  const leftover = join(tree.links, 'movies', '.stackd-relink-0123456789ab.tmp');
  symlinkSync(join(tree.newRoot, 'a.mkv'), leftover);
  const host = await startSymlinkHost([tree.links]);
  t.teardown(() => host.stop());
  const rule = { from_prefix: tree.oldRoot, to_prefix: tree.newRoot };
  const preview = await request(host.url, '/process/symlink-repair', {
    body: { rewrite_rules: [rule], roots: [tree.links] },
  });
  t.is(preview.status, 200, preview.text);
  t.like(preview.body, { scanned_symlinks: 6, changed: 3 });
  t.true(lstatSync(leftover).isSymbolicLink(), 'a dry run touches nothing');
  const applied = await request(host.url, '/process/symlink-repair', {
    body: { rewrite_rules: [rule], roots: [tree.links], dry_run: false },
  });
  t.like(applied.body, { changed: 3 });
  t.false(existsSync(leftover), 'the leftover is gone');
  t.is(readlinkSync(join(tree.links, 'movies', 'a.mkv')), join(tree.newRoot, 'a.mkv'));
});
