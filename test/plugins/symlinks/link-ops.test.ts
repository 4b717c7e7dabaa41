/** The atomic link steps of repair and restore, on real links in a temp dir. */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import {
  isRelinkLeftover,
  linkTargetExists,
  moveLink,
  pathKind,
  placeLink,
  replaceLink,
} from '../../../plugins/symlinks/link-ops.js';

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'stackd-link-ops-'));

test('replaceLink points an existing link elsewhere and leaves no temp link', async (t) => {
  const dir = tempDir();
  symlinkSync('/old/target', join(dir, 'link'));
  await replaceLink(join(dir, 'link'), '/new/target');
  t.is(readlinkSync(join(dir, 'link')), '/new/target');
  t.deepEqual(readdirSync(dir), ['link']);
});

test('replaceLink takes the path as bytes, and a name that is not UTF-8', async (t) => {
  const dir = tempDir();
  const name = Buffer.concat([
    Buffer.from(`${dir}/bad-`),
    Buffer.from([0xff]),
    Buffer.from('.mkv'),
  ]);
  symlinkSync('/old', name);
  await replaceLink(name, '/new');
  t.is(readlinkSync(name).toString(), '/new');
});

test('a failed rename removes the temp link it made', async (t) => {
  const dir = tempDir();
  mkdirSync(join(dir, 'real-dir'));
  writeFileSync(join(dir, 'real-dir', 'file'), 'x');
  // Renaming a link over a non-empty directory fails: the directory and nothing else stays.
  await t.throwsAsync(replaceLink(join(dir, 'real-dir'), '/target'));
  t.deepEqual(readdirSync(dir), ['real-dir']);
});

test('pathKind tells a link, a directory, a file and nothing apart without following links', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'file'), 'x');
  symlinkSync(join(dir, 'file'), join(dir, 'link'));
  symlinkSync('/nowhere', join(dir, 'dangling'));
  t.is(await pathKind(dir), 'dir');
  t.is(await pathKind(join(dir, 'file')), 'file');
  t.is(await pathKind(join(dir, 'link')), 'link');
  t.is(await pathKind(join(dir, 'dangling')), 'link');
  t.is(await pathKind(join(dir, 'absent')), 'missing');
});

test('placeLink makes the parents and replaces what is there', async (t) => {
  const dir = tempDir();
  await placeLink(join(dir, 'a', 'b', 'link'), '/first');
  t.is(readlinkSync(join(dir, 'a', 'b', 'link')), '/first');
  await placeLink(join(dir, 'a', 'b', 'link'), '/second');
  t.is(readlinkSync(join(dir, 'a', 'b', 'link')), '/second');
});

test('moveLink renames a link into a folder it makes', async (t) => {
  const dir = tempDir();
  symlinkSync('/target', join(dir, 'link'));
  await moveLink(join(dir, 'link'), join(dir, 'new', 'place', 'link'));
  t.is(readlinkSync(join(dir, 'new', 'place', 'link')), '/target');
  t.is(await pathKind(join(dir, 'link')), 'missing');
});

test('linkTargetExists reads a relative target from the link folder', async (t) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'file'), 'x');
  t.true(await linkTargetExists(join(dir, 'link'), 'file'));
  t.true(await linkTargetExists('/anywhere/link', join(dir, 'file')));
  t.false(await linkTargetExists(join(dir, 'link'), 'absent'));
});

test('a relink leftover is recognised by its name only', (t) => {
  t.true(isRelinkLeftover('/lib/movies/.stackd-relink-0123456789ab.tmp'));
  t.true(isRelinkLeftover('.stackd-relink-abcdefabcdef.tmp'));
  t.false(isRelinkLeftover('/lib/movies/.stackd-relink-0123.tmp'));
  t.false(isRelinkLeftover('/lib/movies/x.stackd-relink-0123456789ab.tmp'));
});
