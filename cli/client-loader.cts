/**
 * Loads the client: the bundle `npm run build` writes (client.bundle.cjs: this folder's client
 * modules and commander in one file, so a command pays one module resolution and read, not ~27),
 * with V8's code cache, so a command starts from the bytecode of an earlier run instead of
 * compiling the client and commander again.
 * - Node ≥ 22.1: Node's own compile cache (`module.enableCompileCache`), then a plain require.
 * - Node 20 has no such switch: the bundle is compiled as a `vm.Script` with the cached data of
 *   an earlier run, and a run without a usable cache leaves one at exit. V8 checks cached data
 *   only against the source's length, so the file is keyed by the bundle's size, mtime and inode
 *   (a rebuilt bundle never meets an older cache) and kept per user, never in a shared folder.
 * Without the bundle (a build by `tsc` alone) the modules load one by one, as before.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

type Client = typeof import('./program.cjs');

const BUNDLE = join(__dirname, 'client.bundle.cjs');

/** `$XDG_CACHE_HOME/stackd` (else `~/.cache/stackd`): the user's own, as the credentials are. */
function cacheFile(): string {
  const env = process.env;
  const base =
    env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== ''
      ? env.XDG_CACHE_HOME
      : join(env.HOME ?? homedir(), '.cache');
  return join(base, 'stackd', `client-${process.version}-${process.arch}-${pathTag(BUNDLE)}.cache`);
}

/** A short name per bundle path (32-bit FNV-1a): two installs never take turns rewriting one. */
function pathTag(path: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < path.length; index += 1)
    hash = Math.imul(hash ^ path.charCodeAt(index), 0x01000193) >>> 0;
  return hash.toString(16);
}

/** The cached data when it was made from this very bundle file. */
function readCache(path: string, key: string): Buffer | undefined {
  let content: Buffer;
  try {
    content = readFileSync(path);
  } catch {
    return undefined;
  }
  const newline = content.indexOf(10);
  return newline > 0 && content.toString('latin1', 0, newline) === key
    ? content.subarray(newline + 1)
    : undefined;
}

/** Written whole (temp file, then rename): a crash or a concurrent run never leaves half. */
function writeCache(path: string, key: string, data: Buffer): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, Buffer.concat([Buffer.from(`${key}\n`, 'latin1'), data]), { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    // No cache (read-only home, full disk): the next run compiles, as without one.
  }
}

/** Compile the bundle with the cached bytecode (made anew at exit when missing) and run it. */
function requireWithCodeCache(source: string): Client {
  const stat = statSync(BUNDLE);
  const key = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  const path = cacheFile();
  const cachedData = readCache(path, key);
  // The CommonJS wrapper, as Node's loader compiles a module.
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    { filename: BUNDLE, ...(cachedData === undefined ? {} : { cachedData }) },
  );
  if (cachedData === undefined || script.cachedDataRejected === true)
    // Made at exit, it holds the functions this run compiled too, not only the top level.
    process.once('exit', () => writeCache(path, key, script.createCachedData()));
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const bundle = { exports: {} };
  wrapper.call(bundle.exports, bundle.exports, createRequire(BUNDLE), bundle, BUNDLE, __dirname);
  return bundle.exports as Client;
}

/** The client's entry (`runClient`), from the bundle when there is one. */
export function loadClient(): Client {
  // Absent from Node 20's typings: read at run time.
  const { enableCompileCache } = require('node:module') as { enableCompileCache?: () => unknown };
  let source: string;
  try {
    source = readFileSync(BUNDLE, 'utf8');
  } catch {
    enableCompileCache?.();
    return require('./program.cjs') as Client;
  }
  if (enableCompileCache === undefined) return requireWithCodeCache(source);
  enableCompileCache();
  return require(BUNDLE) as Client;
}
