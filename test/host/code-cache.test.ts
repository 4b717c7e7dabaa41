/**
 * The host bundle's code cache files (host/code-cache.cts), on real files: where they go, what
 * binds one to a bundle build, and that anything not whole or not made for this build is never
 * handed to V8 (on Node 20, V8 checks no checksum: a flipped payload byte crashed a process).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import test from 'ava';
import {
  bundleKey,
  codeCachePath,
  pathTag,
  readCodeCache,
  userCacheFolder,
  writeCodeCache,
} from '../../host/code-cache.cjs';
import { tempDir } from '../helpers/start-host.js';

const here = dirname(fileURLToPath(import.meta.url));
const CODE_CACHE_MODULE = join(here, '..', '..', 'host', 'code-cache.cjs');

function payload(size: number, seed: number): Buffer {
  const data = Buffer.alloc(size);
  for (let index = 0; index < size; index += 1) data[index] = (index * 31 + seed) & 0xff;
  return data;
}

test('the folder is $XDG_CACHE_HOME/stackd, else ~/.cache/stackd', (t) => {
  t.is(userCacheFolder({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' }), '/x/cache/stackd');
  t.is(userCacheFolder({ XDG_CACHE_HOME: '', HOME: '/home/u' }), '/home/u/.cache/stackd');
  t.is(userCacheFolder({ HOME: '/home/u' }), '/home/u/.cache/stackd');
});

test('a file per bundle path, Node version and architecture', (t) => {
  const one = codeCachePath('/c', '/opt/a/dist/bundle/stackd.cjs', 'host');
  const other = codeCachePath('/c', '/opt/b/dist/bundle/stackd.cjs', 'host');
  t.not(one, other);
  t.true(one.startsWith(`/c/host-${process.version}-${process.arch}-`));
});

test('the key changes with the bundle file: rewritten, touched or replaced', (t) => {
  const file = join(tempDir('stackd-cc-'), 'stackd.cjs');
  writeFileSync(file, 'one');
  const first = bundleKey(statSync(file));
  t.is(bundleKey(statSync(file)), first);
  writeFileSync(file, 'two!');
  const rewritten = bundleKey(statSync(file));
  t.not(rewritten, first);
  utimesSync(file, new Date(2020, 0, 1), new Date(2020, 0, 1));
  t.not(bundleKey(statSync(file)), rewritten);
  t.true(first.startsWith(`${process.version}:${process.arch}:`));
});

test('written whole with private modes, read back for the same key only', (t) => {
  const folder = join(tempDir('stackd-cc-'), 'stackd');
  const path = join(folder, 'host.cache');
  const data = payload(100_000, 7);
  t.true(writeCodeCache(path, 'key-1', data));
  t.deepEqual(readCodeCache(path, 'key-1'), data);
  t.is(readCodeCache(path, 'key-2'), undefined);
  t.is(statSync(path).mode & 0o777, 0o600);
  t.is(statSync(folder).mode & 0o777, 0o700);
});

test('a missing, truncated, flipped or foreign file is not handed out', (t) => {
  const path = join(tempDir('stackd-cc-'), 'host.cache');
  t.is(readCodeCache(path, 'k'), undefined);
  t.true(writeCodeCache(path, 'k', payload(50_000, 1)));
  const whole = readFileSync(path);
  writeFileSync(path, whole.subarray(0, whole.length - 1000));
  t.is(readCodeCache(path, 'k'), undefined, 'truncated');
  const flipped = Buffer.from(whole);
  flipped[whole.length >> 1] = (flipped[whole.length >> 1] ?? 0) ^ 0x55;
  writeFileSync(path, flipped);
  t.is(readCodeCache(path, 'k'), undefined, 'a flipped payload byte');
  writeFileSync(path, 'not a cache at all');
  t.is(readCodeCache(path, 'k'), undefined, 'no header');
  writeFileSync(path, Buffer.concat([Buffer.from('other-format k 3 x\n'), payload(3, 0)]));
  t.is(readCodeCache(path, 'k'), undefined, 'another format');
});

test('a folder that cannot be made is no error: the write reports false', (t) => {
  const dir = tempDir('stackd-cc-');
  const notAFolder = join(dir, 'file');
  writeFileSync(notAFolder, '');
  t.false(writeCodeCache(join(notAFolder, 'stackd', 'host.cache'), 'k', payload(10, 0)));
  t.false(writeCodeCache(join(dir, 'file', 'host.cache'), 'k', payload(10, 0)));
});

test('V8 refuses data made for another source (the loader then writes it anew)', (t) => {
  const source = 'function add(a, b) { return a + b; }\nadd(1, 2);\n';
  const made = new Script(source, { filename: 'made.js' });
  made.runInThisContext();
  const path = join(tempDir('stackd-cc-'), 'host.cache');
  t.true(writeCodeCache(path, 'k', made.createCachedData()));
  const cachedData = readCodeCache(path, 'k');
  t.not(cachedData, undefined);
  // Another source of another length: V8 itself refuses the data, which is then rewritten.
  const other = new Script(`${source}add(3, 4);\n`, { filename: 'other.js', cachedData });
  t.true(other.cachedDataRejected);
});

/** `count` writes of `data` by a separate process, as a second host starting at once would. */
function writer(path: string, seed: number, count: number): Promise<number | null> {
  const program = [
    `const { writeCodeCache } = require(${JSON.stringify(CODE_CACHE_MODULE)});`,
    'const data = Buffer.alloc(400000);',
    `for (let i = 0; i < data.length; i += 1) data[i] = (i * 31 + ${seed}) & 0xff;`,
    `for (let i = 0; i < ${count}; i += 1) if (!writeCodeCache(${JSON.stringify(path)}, 'k', data)) process.exit(3);`,
  ].join('\n');
  const child = spawn(process.execPath, ['-e', program], { stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', resolve));
}

test('two processes writing at once leave one whole file, never a mix', async (t) => {
  const path = join(tempDir('stackd-cc-'), 'stackd', 'host.cache');
  const codes = await Promise.all([writer(path, 1, 30), writer(path, 2, 30)]);
  t.deepEqual(codes, [0, 0]);
  const data = readCodeCache(path, 'k');
  if (data === undefined) return t.fail('no whole cache file after both writers');
  t.true(data.equals(payload(400_000, 1)) || data.equals(payload(400_000, 2)));
});

const DAY_MS = 24 * 60 * 60 * 1000;

/** Write `name` in `folder` with its mtime `ageMs` ago; returns its path. */
function aged(folder: string, name: string, ageMs: number): string {
  const file = join(folder, name);
  writeFileSync(file, 'x');
  const then = new Date(Date.now() - ageMs);
  utimesSync(file, then, then);
  return file;
}

test("a write removes the install's caches of other Node versions, caches unused for 30 days and dead writers' temp files", (t) => {
  const folder = tempDir('stackd-cc-');
  const bundle = '/opt/a/dist/bundle/stackd.cjs';
  const kept = codeCachePath(folder, bundle, 'host');
  const tag = pathTag(bundle);
  const arch = process.arch;
  const oldNode = aged(folder, `host-v20.1.0-${arch}-${tag}.cache`, 0);
  const otherInstall = aged(folder, `host-${process.version}-${arch}-0badcafe.cache`, 29 * DAY_MS);
  const unused = aged(folder, `host-${process.version}-${arch}-deadbeef.cache`, 31 * DAY_MS);
  const client = aged(folder, `client-v20.1.0-${arch}-${tag}.cache`, DAY_MS);
  const liveTemp = aged(folder, `${kept}.999.tmp`.slice(folder.length + 1), 10 * 60 * 1000);
  const deadTemp = aged(folder, `${kept}.998.tmp`.slice(folder.length + 1), 2 * 60 * 60 * 1000);
  const notOurs = aged(folder, 'notes.txt', 365 * DAY_MS);

  t.true(writeCodeCache(kept, 'k', payload(1000, 3)));

  t.true(existsSync(kept));
  t.false(existsSync(oldNode), 'this install, another Node version: never read again');
  t.false(existsSync(unused), 'unused for 31 days');
  t.false(existsSync(deadTemp), 'a temp file two hours old');
  t.true(existsSync(otherInstall), 'another install, used 29 days ago');
  t.true(existsSync(client), "the terminal client's cache of the same install");
  t.true(existsSync(liveTemp), 'a temp file another writer may still rename');
  t.true(existsSync(notOurs), 'not a cache file');
});

test('a read marks the cache used, so pruning goes by last use, not by when it was written', (t) => {
  const folder = tempDir('stackd-cc-');
  const path = codeCachePath(folder, '/opt/b/dist/bundle/stackd.cjs', 'host');
  t.true(writeCodeCache(path, 'k', payload(1000, 4)));
  const then = new Date(Date.now() - 40 * DAY_MS);
  utimesSync(path, then, then);
  t.not(readCodeCache(path, 'k'), undefined);
  t.true(Date.now() - statSync(path).mtimeMs < DAY_MS);
  t.true(existsSync(path));
});
