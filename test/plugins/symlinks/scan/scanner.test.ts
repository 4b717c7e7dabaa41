/** The scanner on real trees: loops, unreadable dirs, odd names, and batches handed on. */
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statfsSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { walkLinks, type FoundLink } from '../../../../plugins/symlinks/scan/scanner.js';
import { rewriteTarget } from '../../../../plugins/symlinks/repair/prefix-rewrite.js';
import { replaceLink } from '../../../../plugins/symlinks/link-ops.js';
import { readlinkSync } from 'node:fs';

function tree(): string {
  return mkdtempSync(join(tmpdir(), 'stackd-scan-'));
}

async function collect(root: string, concurrency = 4) {
  const found: FoundLink[] = [];
  const errors: string[] = [];
  let batches = 0;
  const progress = await walkLinks(
    [root],
    (batch) => {
      batches += 1;
      found.push(...batch);
    },
    { concurrency, onError: (error) => errors.push(`${error.path}: ${error.error}`) },
  );
  return { found, errors, batches, progress };
}

test('directory links are reported and never followed (no loop); nested trees are walked', async (t) => {
  const root = tree();
  mkdirSync(join(root, 'a', 'b', 'c'), { recursive: true });
  symlinkSync(root, join(root, 'a', 'up'));
  symlinkSync(join(root, 'a'), join(root, 'a', 'b', 'c', 'back'));
  symlinkSync('/nowhere', join(root, 'a', 'b', 'broken'));
  const { found, progress } = await collect(root);
  t.deepEqual(found.map((link) => link.path.slice(root.length)).sort(), [
    '/a/b/broken',
    '/a/b/c/back',
    '/a/up',
  ]);
  t.is(progress.directories, 4);
});

// Root reads every directory whatever its mode, so this runs only as another user.
(process.getuid?.() === 0 ? test.skip : test)(
  'unreadable directories are errors, the rest is still walked',
  async (t) => {
    const root = tree();
    mkdirSync(join(root, 'closed'));
    symlinkSync('/x', join(root, 'closed', 'hidden'));
    symlinkSync('/y', join(root, 'open'));
    chmodSync(join(root, 'closed'), 0o000);
    t.teardown(() => chmodSync(join(root, 'closed'), 0o700));
    const { found, errors } = await collect(root);
    t.deepEqual(
      found.map((link) => link.target),
      ['/y'],
    );
    t.is(errors.length, 1);
  },
);

test('names with spaces, newlines and non-UTF-8 bytes are found and can be relinked', async (t) => {
  const root = tree();
  symlinkSync('/old/a', join(root, 'with space'));
  symlinkSync('/old/b', join(root, 'new\nline'));
  const rawName = Buffer.concat([
    Buffer.from(`${root}/bad-`),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('.mkv'),
  ]);
  symlinkSync('/old/c', rawName);
  const { found } = await collect(root);
  t.is(found.length, 3);
  const odd = found.find((link) => link.pathBytes.equals(rawName));
  t.truthy(odd, 'the non-UTF-8 name is kept as bytes');
  t.true(odd?.path.includes('\ufffd'), 'its text shows U+FFFD');
  await replaceLink(rawName, '/new/c');
  t.is(readlinkSync(rawName).toString(), '/new/c');
});

test('directories and targets keep their exact bytes: UTF-8 accents and invalid bytes below them', async (t) => {
  const root = tree();
  const accented = join(root, 'Amélie (2001)');
  mkdirSync(accented);
  symlinkSync('/médias/films/Amélie.mkv', join(accented, 'Amélie.mkv'));
  const rawDir = Buffer.concat([Buffer.from(`${root}/raw-`), Buffer.from([0xc3, 0x28, 0xff])]);
  mkdirSync(rawDir);
  const rawLink = Buffer.concat([rawDir, Buffer.from('/inner-'), Buffer.from([0xfe])]);
  const rawTarget = Buffer.concat([
    Buffer.from('/old/'),
    Buffer.from([0x80, 0xff]),
    Buffer.from('.mkv'),
  ]);
  symlinkSync(rawTarget, rawLink);
  const { found, errors } = await collect(root);
  t.deepEqual(errors, []);
  t.is(found.length, 2);
  const utf8 = found.find((link) => link.path.endsWith('Amélie.mkv'));
  t.is(utf8?.path, join(accented, 'Amélie.mkv'));
  t.is(utf8?.target, '/médias/films/Amélie.mkv');
  t.true(utf8?.targetIsUtf8, 'a UTF-8 target with accents is text');
  t.true(utf8?.pathBytes.equals(Buffer.from(join(accented, 'Amélie.mkv'))), 'path bytes are UTF-8');
  const raw = found.find((link) => link.pathBytes.equals(rawLink));
  t.truthy(raw, 'the link below a non-UTF-8 directory is found with its exact path bytes');
  t.true(raw?.targetBytes.equals(rawTarget), 'and its exact target bytes');
  t.false(raw?.targetIsUtf8, 'a target that is not UTF-8 says so (a repair leaves it alone)');
});

test('many links arrive in several batches with exact counts', async (t) => {
  const root = tree();
  for (let dir = 0; dir < 20; dir += 1) {
    mkdirSync(join(root, `d${dir}`));
    for (let index = 0; index < 300; index += 1)
      symlinkSync(`/target/${dir}/${index}`, join(root, `d${dir}`, `l${index}`));
  }
  writeFileSync(join(root, 'plain.txt'), 'not a link');
  const { found, batches, progress } = await collect(root, 8);
  t.is(found.length, 6000);
  t.is(progress.links, 6000);
  t.true(batches >= 2, 'more than one message (512 links each at most)');
});

test('a target filter hands over only matching links (and kept names), counting the rest; workers check targets', async (t) => {
  const root = tree();
  mkdirSync(join(root, 'media'));
  writeFileSync(join(root, 'media', 'film.mkv'), '');
  mkdirSync(join(root, 'lib'));
  symlinkSync(join(root, 'media', 'film.mkv'), join(root, 'lib', 'absolute-ok'));
  symlinkSync('../media/film.mkv', join(root, 'lib', 'relative-ok'));
  symlinkSync(join(root, 'media', 'gone.mkv'), join(root, 'lib', 'broken'));
  symlinkSync(join(root, 'lib', 'loop-b'), join(root, 'lib', 'loop-a'));
  symlinkSync(join(root, 'lib', 'loop-a'), join(root, 'lib', 'loop-b'));
  symlinkSync('/elsewhere/x', join(root, 'lib', 'other'));
  symlinkSync('/elsewhere/y', join(root, 'lib', 'keep-me'));
  const found: FoundLink[] = [];
  let passedOver = 0;
  const progress = await walkLinks(
    [join(root, 'lib')],
    (batch, skipped) => {
      found.push(...batch);
      passedOver += skipped;
    },
    {
      concurrency: 2,
      targetFilter: {
        targetPrefixes: [join(root, 'media'), '../media', join(root, 'lib')],
        keepPath: /keep-me$/,
      },
      checkTargets: true,
    },
  );
  const byName = new Map(found.map((link) => [link.path.slice(root.length + 5), link]));
  t.deepEqual([...byName.keys()].sort(), [
    'absolute-ok',
    'broken',
    'keep-me',
    'loop-a',
    'loop-b',
    'relative-ok',
  ]);
  t.is(passedOver, 1, 'the link matching no prefix is only counted');
  t.is(progress.links, 7, 'progress counts every link seen');
  t.true(byName.get('absolute-ok')?.targetExists);
  t.true(
    byName.get('relative-ok')?.targetExists,
    "a relative target is read from the link's folder",
  );
  t.false(byName.get('broken')?.targetExists);
  t.false(byName.get('loop-a')?.targetExists, 'a loop counts as missing, not as an error');
  t.false(byName.get('keep-me')?.targetExists);
  const unchecked = await collect(join(root, 'lib'));
  t.is(unchecked.found.length, 7);
  t.true(
    unchecked.found.every((link) => link.targetExists === undefined),
    'without checkTargets nothing is claimed',
  );
});

test('prefix rules: whole segments only, first rule wins, a second pass changes nothing', (t) => {
  const rules = [{ from_prefix: '/old/root', to_prefix: '/new/root' }];
  t.is(rewriteTarget('/old/root', rules)?.target, '/new/root');
  t.is(rewriteTarget('/old/root/movie/file.mkv', rules)?.target, '/new/root/movie/file.mkv');
  t.is(rewriteTarget('/old/rootx/file', rules), null);
  const nested = [{ from_prefix: '/data', to_prefix: '/data/v2' }];
  const once = rewriteTarget('/data/a.mkv', nested)?.target ?? '';
  t.is(once, '/data/v2/a.mkv');
  t.is(rewriteTarget(once, nested), null, 'already under the new prefix');
});

test('with confines, a directory whose real path lies outside them is not entered', async (t) => {
  const base = tree();
  const allowed = join(base, 'allowed');
  const outside = join(base, 'outside');
  mkdirSync(join(allowed, 'inner'), { recursive: true });
  mkdirSync(outside);
  symlinkSync('/target/kept', join(allowed, 'inner', 'kept.mkv'));
  symlinkSync('/target/secret', join(outside, 'secret.mkv'));
  // A root given through a symlinked folder (lexically inside, really outside).
  symlinkSync(outside, join(allowed, 'escape'));
  const found: string[] = [];
  const errors: string[] = [];
  await walkLinks(
    [allowed, join(allowed, 'escape')],
    (batch) => {
      found.push(...batch.map((link) => link.path));
    },
    { concurrency: 2, confines: [allowed], onError: (error) => errors.push(error.path) },
  );
  t.true(found.includes(join(allowed, 'inner', 'kept.mkv')));
  t.false(
    found.some((path) => path.endsWith('secret.mkv')),
    'nothing read outside',
  );
  t.deepEqual(errors, [join(allowed, 'escape')]);
});

/**
 * A tree of `dirs` folders of 1,000 links each: long enough a walk (> 100 ms) to be measured.
 * Removed after the test.
 */
function bigTree(t: ExecutionContext, dirs: number): string {
  const root = tree();
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  for (let dir = 0; dir < dirs; dir += 1) {
    mkdirSync(join(root, `d${dir}`));
    for (let index = 0; index < 1000; index += 1)
      symlinkSync(`/target/${dir}/${index}`, join(root, `d${dir}`, `l${index}`));
  }
  return root;
}

// Elsewhere the workers' waits cannot be measured, and a scan adds workers as it always did.
(process.platform === 'linux' ? test : test.skip)(
  'a warm tree is walked by one worker, however many are allowed',
  async (t) => {
    const root = bigTree(t, 40);
    await collect(root, 8); // every inode in the cache
    // A worker reads as waiting when it sleeps through a quarter of its work; on a machine this
    // loaded by the rest of the suite, a page fault or a descheduled main thread can make one
    // walk do so. Three walks may try; a scan that always starts every allowed worker (8) never
    // passes.
    const workers: number[] = [];
    for (let walk = 0; walk < 3 && !workers.includes(1); walk += 1) {
      const { found, progress } = await collect(root, 8);
      t.is(found.length, 40_000);
      workers.push(progress.workers);
    }
    t.true(workers.includes(1), `workers per walk: ${workers.join(', ')}`);
  },
);

// Emptying the page cache needs root, and slows every other program on the machine for a while.
// A tree in tmpfs lives in memory and is never read from a disk: nothing to wait on there.
const TMPFS_MAGIC = 0x01021994;
const canDropCaches =
  process.getuid?.() === 0 &&
  process.platform === 'linux' &&
  statfsSync(tmpdir()).type !== TMPFS_MAGIC;

(canDropCaches ? test.serial : test.skip)(
  'a cold tree, read from the disk, gets more workers',
  async (t) => {
    const root = bigTree(t, 40);
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3');
    const { found, progress } = await collect(root, 2);
    t.is(found.length, 40_000);
    t.is(progress.workers, 2);
  },
);
