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
import { bundleKey, readCodeCache, writeCodeCache } from '../../host/code-cache.cjs';
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

const CLIENT_BUNDLE = join(BIN_JS, '..', 'client.bundle.cjs');

/** The key a cache for this Node and the client bundle as built carries (the host's rule). */
function clientKey(): string {
  return bundleKey(statSync(CLIENT_BUNDLE));
}

/** A first `stackd help` in a cache home of its own: its answer and the cache file it left. */
async function firstRun(): Promise<{
  env: Record<string, string>;
  file: string;
  expected: string;
}> {
  const { env, folder } = cacheHome();
  const expected = await help(env);
  return { env, file: cacheFileIn(folder), expected };
}

/** The payload of the cache file when it is whole and made for the client bundle as built. */
function cachedPayload(file: string): Buffer | undefined {
  return readCodeCache(file, clientKey());
}

node20Test(
  'the first run leaves a cache keyed by the bundle; the next starts from it',
  async (t) => {
    const { env, file, expected } = await firstRun();
    t.regex(expected, /Usage: stackd/);
    const data = cachedPayload(file);
    t.true(
      (data?.length ?? 0) > 10_000,
      'a whole cache for this bundle, holding the compiled client',
    );
    t.is(statSync(file).mode & 0o777, 0o600);
    // A write is a temp file renamed over this one: a new inode. (The mtime moves at every
    // read: it marks the cache used, docs/architecture.md.)
    const written = statSync(file).ino;

    t.is(await help(env), expected);
    t.is(statSync(file).ino, written, 'a usable cache is not written again');
  },
);

node20Test(
  'a cache of another bundle, or one V8 refuses, is not used and is made anew',
  async (t) => {
    const { env, file, expected } = await firstRun();
    const data = cachedPayload(file) ?? Buffer.alloc(0);
    t.true(data.length > 10_000);

    // Made from another build of the bundle: same data, another key.
    t.true(writeCodeCache(file, 'v0:x64:1:2:3', data));
    t.is(cachedPayload(file), undefined, 'not a cache for this bundle');
    t.is(await help(env), expected);
    t.truthy(cachedPayload(file), 'made anew for this bundle');

    // This bundle's key, but data V8 cannot take (its own checks refuse it).
    const zeros = Buffer.alloc(data.length);
    t.true(writeCodeCache(file, clientKey(), zeros));
    t.is(await help(env), expected);
    const remade = cachedPayload(file);
    t.false(remade?.equals(zeros) ?? true, 'the refused data was replaced');
    t.true((remade?.length ?? 0) > 10_000);
  },
);

node20Test(
  'a damaged cache (a flipped byte, a cut file) is never handed to V8 and is made anew',
  async (t) => {
    const { env, file, expected } = await firstRun();
    const whole = readFileSync(file);

    const flipped = Buffer.from(whole);
    const at = whole.length - 1000;
    flipped[at] = (flipped[at] ?? 0) ^ 0xff;
    writeFileSync(file, flipped);
    t.is(cachedPayload(file), undefined, 'a flipped byte fails the check');
    t.is(await help(env), expected);
    t.truthy(cachedPayload(file), 'rewritten whole');

    writeFileSync(file, whole.subarray(0, whole.length >> 1));
    t.is(cachedPayload(file), undefined, 'a cut file fails the check');
    t.is(await help(env), expected);
    t.truthy(cachedPayload(file), 'rewritten whole');
  },
);
