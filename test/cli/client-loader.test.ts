/**
 * The client bundle's code cache on Node 20 (Node ≥ 22.1 uses Node's own and skips these): the
 * real `stackd` leaves a cache in the user's cache folder on its first run, starts from it on
 * the next without rewriting it, and a cache that does not fit (made from another bundle file,
 * or data V8 refuses) is never used: the command still answers and the cache is made anew.
 */
import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { tempDir } from '../helpers/start-host.js';
import { BIN_JS, runClient } from './run-client.js';

const node20Test = 'enableCompileCache' in nodeModule ? test.skip : test;

/** A cache home of its own: the client's environment and the folder it keeps its cache in. */
function cacheHome(): { env: Record<string, string>; folder: string } {
  const home = tempDir('stackd-cli-cache-');
  return { env: { XDG_CACHE_HOME: home, NO_COLOR: '1' }, folder: join(home, 'stackd') };
}

/** The one cache file of this Node in `folder` (its name ends with a tag of the bundle path). */
function cacheFileIn(folder: string): string {
  const prefix = `client-${process.version}-${process.arch}-`;
  const names = existsSync(folder) ? readdirSync(folder) : [];
  const caches = names.filter((name) => name.startsWith(prefix) && name.endsWith('.cache'));
  if (caches.length !== 1)
    throw new Error(`one cache file expected in ${folder}: ${names.join(', ')}`);
  return join(folder, caches[0] as string);
}

/** `stackd help`: a client command that needs no host. */
async function help(env: Record<string, string>): Promise<string> {
  const result = await runClient(['help'], { env });
  if (result.code !== 0) throw new Error(`stackd help exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

/** The key the cache's header carries: this Node and the bundle file it was made from. */
function bundleKey(): string {
  const bundle = join(BIN_JS, '..', 'client.bundle.cjs');
  const stat = statSync(bundle);
  return `${process.version}:${process.arch}:${stat.size}:${stat.mtimeMs}:${stat.ino}`;
}

const FORMAT = 'stackd-code-cache/2';

/** The payload's check as the header writes it: its CRC-32, eight hex digits. */
function check(data: Buffer): string {
  return crc32(data).toString(16).padStart(8, '0');
}

/** A cache file's content: `stackd-code-cache/2 KEY LENGTH CRC32` then the data. */
function cacheContent(key: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${FORMAT} ${key} ${data.length} ${check(data)}\n`), data]);
}

/** The cache file's key and its data, after checking the header's length and CRC-32. */
function readCacheFile(file: string): { key: string; data: Buffer } {
  const content = readFileSync(file);
  const newline = content.indexOf(10);
  const [format, key, length, crc] = content.toString('latin1', 0, newline).split(' ');
  const data = content.subarray(newline + 1);
  if (format !== FORMAT || length !== String(data.length))
    throw new Error(`not a whole cache file: ${file}`);
  if (crc !== check(data)) throw new Error(`cache data does not match its CRC-32: ${file}`);
  return { key: key ?? '', data };
}

node20Test(
  'the first run leaves a cache keyed by the bundle; the next starts from it',
  async (t) => {
    const { env, folder } = cacheHome();
    const expected = await help(env);
    t.regex(expected, /Usage: stackd/);
    const file = cacheFileIn(folder);
    const { key, data } = readCacheFile(file);
    t.is(key, bundleKey());
    t.true(data.length > 10_000, 'the cache holds the compiled client');
    t.is(statSync(file).mode & 0o777, 0o600);
    const written = statSync(file).mtimeMs;

    t.is(await help(env), expected);
    t.is(statSync(file).mtimeMs, written, 'a usable cache is not written again');
  },
);

node20Test(
  'a cache of another bundle, or one V8 refuses, is not used and is made anew',
  async (t) => {
    const { env, folder } = cacheHome();
    const expected = await help(env);
    const file = cacheFileIn(folder);
    const { data } = readCacheFile(file);

    // Made from another build of the bundle: same data, another key.
    writeFileSync(file, cacheContent('v0:x64:1:2:3', data));
    t.is(await help(env), expected);
    t.is(readCacheFile(file).key, bundleKey(), 'made anew for this bundle');

    // This bundle's key, but data V8 cannot take (its own checks refuse it).
    const zeros = Buffer.alloc(data.length);
    writeFileSync(file, cacheContent(bundleKey(), zeros));
    t.is(await help(env), expected);
    const remade = readCacheFile(file);
    t.is(remade.key, bundleKey());
    t.false(remade.data.equals(zeros), 'the refused data was replaced');
    t.true(remade.data.length > 10_000);
  },
);

node20Test(
  'a damaged cache (a flipped byte, a cut file) is never handed to V8 and is made anew',
  async (t) => {
    const { env, folder } = cacheHome();
    const expected = await help(env);
    const file = cacheFileIn(folder);
    const whole = readFileSync(file);

    const flipped = Buffer.from(whole);
    const at = whole.length - 1000;
    flipped[at] = (flipped[at] ?? 0) ^ 0xff;
    writeFileSync(file, flipped);
    t.is(await help(env), expected);
    t.is(readCacheFile(file).key, bundleKey(), 'rewritten whole');

    writeFileSync(file, whole.subarray(0, whole.length >> 1));
    t.is(await help(env), expected);
    t.is(readCacheFile(file).key, bundleKey(), 'rewritten whole');
  },
);
