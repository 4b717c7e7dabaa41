/**
 * The host's code cache on Node 20 (Node ≥ 22.1 uses Node's own compile cache and skips these):
 * a first boot compiles the bundle and leaves its bytecode in the user's cache folder once it has
 * listened, the next boot starts from it and leaves it as it is, and a file that is damaged,
 * truncated or refused by V8 is never used: the host boots as without one and writes it anew.
 * `NODE_DEBUG=stackd` is the loader's own account of what it did.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import test from 'ava';
import { BUNDLE_PATH } from '../../../host/bundle-loader.cjs';
import {
  bundleKey,
  codeCachePath,
  readCodeCache,
  writeCodeCache,
} from '../../../host/code-cache.cjs';
import { eventually } from '../../helpers/eventually.js';
import { startHost, tempDir } from '../../helpers/start-host.js';

const node20Test = 'enableCompileCache' in nodeModule ? test.skip : test;

/** A cache home of the test's own, and the cache file the host keeps in it. */
function cacheHome(): { env: Record<string, string>; file: string } {
  const home = tempDir('stackd-host-cache-');
  return {
    env: { XDG_CACHE_HOME: home, NODE_DEBUG: 'stackd' },
    file: codeCachePath(join(home, 'stackd'), BUNDLE_PATH, 'host'),
  };
}

/** Boot a supervisor-only host, wait until it has said `line`, stop it; its output. */
async function bootUntil(env: Record<string, string>, line: string): Promise<string> {
  const host = await startHost({ config: {}, plugins: ['supervisor'], env });
  await eventually(() => host.output().includes(line), { timeoutMs: 20_000, what: line });
  await host.stop();
  return host.output();
}

const bootUntilWritten = (env: Record<string, string>): Promise<string> =>
  bootUntil(env, 'code cache written');

/** Boot, check it serves, stop; its output. */
async function bootAndStop(env: Record<string, string>): Promise<string> {
  const host = await startHost({ config: {}, plugins: ['supervisor'], env });
  const health = await fetch(`${host.url}/health`);
  await host.stop();
  if (health.status !== 200) throw new Error(`/health answered ${health.status}`);
  return host.output();
}

const key = (): string => bundleKey(statSync(BUNDLE_PATH));

node20Test('a first boot writes the cache; the next boots from it and keeps it', async (t) => {
  const { env, file } = cacheHome();
  const first = await bootUntilWritten(env);
  t.regex(first, /code cache absent, of another build or damaged/);
  t.not(readCodeCache(file, key()), undefined);
  t.is(statSync(file).mode & 0o777, 0o600);
  const written = readFileSync(file);
  const second = await bootAndStop(env);
  t.regex(second, /code cache used/);
  t.notRegex(second, /code cache written/);
  t.true(readFileSync(file).equals(written), 'left as it was');
});

/** A boot given `damage(file)` of a good cache ignores it and writes a good one again. */
async function replacesDamaged(
  damage: (whole: Buffer) => Buffer,
  expected: RegExp,
): Promise<{ output: string; replaced: boolean }> {
  const { env, file } = cacheHome();
  await bootUntilWritten(env);
  const damaged = damage(readFileSync(file));
  writeFileSync(file, damaged);
  const output = await bootUntilWritten(env);
  if (!expected.test(output)) throw new Error(`expected ${String(expected)} in:\n${output}`);
  const now = readFileSync(file);
  return { output, replaced: !now.equals(damaged) && readCodeCache(file, key()) !== undefined };
}

node20Test('a truncated cache is ignored and written anew', async (t) => {
  const result = await replacesDamaged(
    (whole) => whole.subarray(0, whole.length >> 1),
    /code cache absent, of another build or damaged/,
  );
  t.true(result.replaced);
});

node20Test('a cache with a flipped byte is ignored and written anew', async (t) => {
  const result = await replacesDamaged((whole) => {
    const copy = Buffer.from(whole);
    copy[copy.length >> 1] = (copy[copy.length >> 1] ?? 0) ^ 0x55;
    return copy;
  }, /code cache absent, of another build or damaged/);
  t.true(result.replaced);
});

node20Test('data V8 refuses (whole, for this build) is written anew', async (t) => {
  const { env, file } = cacheHome();
  // A file our checks accept, holding no V8 code cache: only V8 can refuse it.
  t.true(writeCodeCache(file, key(), Buffer.alloc(64 * 1024, 0x5a)));
  const output = await bootUntilWritten(env);
  t.regex(output, /code cache rejected by V8/);
  const data = readCodeCache(file, key());
  t.true(data !== undefined && !data.equals(Buffer.alloc(64 * 1024, 0x5a)));
});

node20Test('a cache folder that cannot be made leaves the boot as it was', async (t) => {
  const home = tempDir('stackd-host-cache-');
  const notAFolder = join(home, 'file');
  writeFileSync(notAFolder, '');
  const env = { XDG_CACHE_HOME: notAFolder, NODE_DEBUG: 'stackd' };
  const output = await bootUntil(env, 'code cache not written');
  t.regex(output, /stackd listening on/);
});

node20Test('NODE_DISABLE_COMPILE_CACHE=1 turns the cache off', async (t) => {
  const { env, file } = cacheHome();
  const output = await bootAndStop({ ...env, NODE_DISABLE_COMPILE_CACHE: '1' });
  t.notRegex(output, /code cache/);
  t.throws(() => statSync(file));
});

node20Test('two hosts of one install starting at once leave one whole cache', async (t) => {
  const { env, file } = cacheHome();
  const outputs = await Promise.all([bootUntilWritten(env), bootUntilWritten(env)]);
  t.is(outputs.length, 2);
  t.not(readCodeCache(file, key()), undefined);
  t.regex(await bootAndStop(env), /code cache used/);
});
