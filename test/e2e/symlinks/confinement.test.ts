/**
 * `stackd.symlinks.allowed_roots` by real path: migration roots are checked, a symlinked folder
 * inside an allowed root that points out of it is no way out, a restore places nothing outside,
 * a change through POST /config applies at once, and a migration creates a missing destination
 * (parents too) inside the allowed roots only.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { startHost } from '../../helpers/start-host.js';
import { linkTree, startSymlinkHost, type LinkTree } from './support.js';

/** The tree plus `outside/` (links into old/) and `links/escape → outside`. */
function escapeTree(): LinkTree & { outside: string } {
  const tree = linkTree();
  const outside = join(tree.base, 'outside');
  mkdirSync(outside);
  for (const name of ['x.mkv', 'y.mkv', 'z.mkv'])
    symlinkSync(join(tree.oldRoot, 'a.mkv'), join(outside, name));
  symlinkSync(outside, join(tree.links, 'escape'));
  return { ...tree, outside };
}

const REWRITE = { from_prefix: '/nowhere-old', to_prefix: '/nowhere-new' };

test('migration roots outside allowed_roots are refused, naming the field', async (t) => {
  const tree = escapeTree();
  const host = await startSymlinkHost([tree.links], {
    stackd: { symlinks: { default_roots: [tree.links], allowed_roots: [tree.links] } },
  });
  t.teardown(() => host.stop());
  const cases: Array<[Record<string, string>, string]> = [
    [{ from_root: join(tree.links, 'movies'), to_root: tree.newRoot }, 'to_root'],
    [{ from_root: '/etc', to_root: join(tree.links, 'moved') }, 'from_root'],
    // Lexically inside, really outside: the symlinked folder.
    [{ from_root: join(tree.links, 'escape'), to_root: join(tree.links, 'moved') }, 'from_root'],
    [
      { from_root: join(tree.links, 'movies'), to_root: join(tree.links, 'escape', 'new') },
      'to_root',
    ],
    [
      { from_root: join(tree.links, 'movies', '..', '..', 'old'), to_root: join(tree.links, 'm') },
      'from_root',
    ],
  ];
  for (const [migration, side] of cases) {
    const answer = await request(host.url, '/process/symlink-repair', {
      body: { dry_run: false, root_migrations: [migration] },
    });
    t.is(answer.status, 400, `${JSON.stringify(migration)}: ${answer.text}`);
    t.is(answer.body.field, `root_migrations[0].${side}`);
    t.is(typeof answer.body.detail, 'string');
  }
  t.true(lstatSync(join(tree.links, 'movies', 'a.mkv')).isSymbolicLink(), 'nothing moved');
  t.false(existsSync(join(tree.outside, 'new')));
});

test('a symlinked folder out of an allowed root is not followed out of it', async (t) => {
  const tree = escapeTree();
  const host = await startSymlinkHost([tree.links], {
    stackd: { symlinks: { default_roots: [tree.links], allowed_roots: [tree.links] } },
  });
  t.teardown(() => host.stop());
  const rule = { from_prefix: tree.oldRoot, to_prefix: tree.newRoot };
  const viaLink = await request(host.url, '/process/symlink-repair', {
    body: { dry_run: false, rewrite_rules: [rule], roots: [join(tree.links, 'escape')] },
  });
  t.is(viaLink.status, 400, viaLink.text);
  t.like(viaLink.body, { code: 'SYMLINK_ROOT_NOT_ALLOWED', field: 'roots[0]' });
  const backup = await request(host.url, '/process/symlink-manifest/backup', {
    body: { backup_path: 'b.json', include_broken: true, roots: [join(tree.links, 'escape')] },
  });
  t.is(backup.status, 400, backup.text);
  t.is(backup.body.field, 'roots[0]');
  const whole = await request(host.url, '/process/symlink-repair', {
    body: { dry_run: false, rewrite_rules: [rule], roots: [tree.links] },
  });
  t.is(whole.status, 200, whole.text);
  for (const name of ['x.mkv', 'y.mkv', 'z.mkv'])
    t.is(readlinkSync(join(tree.outside, name)), join(tree.oldRoot, 'a.mkv'), `${name} untouched`);
  t.is(readlinkSync(join(tree.links, 'movies', 'a.mkv')), join(tree.newRoot, 'a.mkv'));
});

test('a restore places no link outside allowed_roots', async (t) => {
  const tree = escapeTree();
  const host = await startSymlinkHost([tree.links], {
    stackd: { symlinks: { default_roots: [tree.links], allowed_roots: [tree.links] } },
  });
  t.teardown(() => host.stop());
  const manifest = join(host.dataDir, 'symlink-repair', 'snapshots', 'planted.json');
  mkdirSync(join(host.dataDir, 'symlink-repair', 'snapshots'), { recursive: true });
  const planted = join(tree.outside, 'planted.mkv');
  const viaEscape = join(tree.links, 'escape', 'via-escape.mkv');
  const inside = join(tree.links, 'movies', 'restored.mkv');
  writeFileSync(
    manifest,
    JSON.stringify({
      entries: [planted, viaEscape, inside].map((link_path) => ({
        link_path,
        target: join(tree.oldRoot, 'a.mkv'),
      })),
    }),
  );
  const answer = await request(host.url, '/process/symlink-manifest/restore', {
    body: { manifest_path: 'planted.json', dry_run: false },
  });
  t.is(answer.status, 200, answer.text);
  t.is(answer.body.restored, 1);
  t.false(existsSync(planted));
  t.false(existsSync(join(tree.outside, 'via-escape.mkv')));
  t.is(readlinkSync(inside), join(tree.oldRoot, 'a.mkv'));
});

test('a POST /config change of allowed_roots applies at once', async (t) => {
  const tree = escapeTree();
  const host = await startHost({
    plugins: [builtinPlugin('supervisor'), builtinPlugin('symlinks')],
    config: { stackd: { symlinks: { default_roots: [tree.links] } } },
  });
  t.teardown(() => host.stop());
  const before = await request(host.url, '/process/symlink-repair', {
    body: { rewrite_rules: [REWRITE], roots: [tree.outside] },
  });
  t.is(before.status, 200, before.text);
  const saved = await request(host.url, '/config', {
    body: { updates: { stackd: { symlinks: { allowed_roots: [tree.links] } } } },
  });
  t.is(saved.status, 200, saved.text);
  const after = await request(host.url, '/process/symlink-repair', {
    body: { rewrite_rules: [REWRITE], roots: [tree.outside] },
  });
  t.is(after.status, 400, after.text);
  t.like(after.body, { code: 'SYMLINK_ROOT_NOT_ALLOWED', field: 'roots[0]' });
  const backup = await request(host.url, '/process/symlink-manifest/backup', {
    body: { backup_path: join(tree.outside, 'm.json'), include_broken: true },
  });
  t.is(backup.status, 400, 'a manifest in a tree outside the new allowed roots is refused');
  t.is(backup.body.field, 'backup_path');
});

test('a migration creates a missing destination folder (parents too) inside allowed_roots', async (t) => {
  const tree = escapeTree();
  const host = await startSymlinkHost([tree.links], {
    stackd: {
      symlinks: { default_roots: [tree.links], allowed_roots: [tree.links, tree.newRoot] },
    },
  });
  t.teardown(() => host.stop());
  const destination = join(tree.newRoot, 'mount', 'sub folder');
  const migration = { from_root: join(tree.links, 'movies'), to_root: destination };
  const preview = await request(host.url, '/process/symlink-repair', {
    body: { root_migrations: [migration] },
  });
  t.is(preview.status, 200, preview.text);
  t.false(existsSync(destination), 'a dry run creates nothing');
  const applied = await request(host.url, '/process/symlink-repair', {
    body: { dry_run: false, root_migrations: [migration] },
  });
  t.is(applied.status, 200, applied.text);
  t.is(applied.body.moved, 3);
  t.is(readlinkSync(join(destination, 'a.mkv')), join(tree.oldRoot, 'a.mkv'));
  const outside = await request(host.url, '/process/symlink-repair', {
    body: {
      dry_run: false,
      root_migrations: [{ from_root: destination, to_root: join(tree.base, 'elsewhere', 'x') }],
    },
  });
  t.is(outside.status, 400, outside.text);
  t.is(outside.body.field, 'root_migrations[0].to_root');
  t.false(existsSync(join(tree.base, 'elsewhere')));
});
