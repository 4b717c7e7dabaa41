/**
 * Loads the client: the bundle `npm run build` writes (client.bundle.cjs: this folder's client
 * modules and commander in one file, so a command pays one module resolution and read, not ~27),
 * with V8's code cache, so a command starts from the bytecode of an earlier run instead of
 * compiling the client and commander again.
 * - Node ≥ 22.1: Node's own compile cache (`module.enableCompileCache`), then a plain require.
 * - Node 20 has no such switch: the bundle is compiled as a `vm.Script` with the cached data of
 *   an earlier run, and a run without a usable cache leaves one at exit. The file is the host's
 *   kind (host/code-cache.cts): keyed by the bundle's size, mtime and inode and this Node (a
 *   rebuilt bundle never meets an older cache), checked whole, kept per user.
 * Without the bundle (a build by `tsc` alone) the modules load one by one, as before.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
// The host's cache files (header with the bundle's key, the payload's length and CRC-32): a
// damaged file is ignored, never handed to V8, which on Node 20 does not check a checksum.
import {
  bundleKey,
  codeCachePath,
  readCodeCache,
  userCacheFolder,
  writeCodeCache,
} from '../host/code-cache.cjs';

type Client = typeof import('./program.cjs');

const BUNDLE = join(__dirname, 'client.bundle.cjs');

/** Compile the bundle with the cached bytecode (made anew at exit when missing) and run it. */
function requireWithCodeCache(source: string): Client {
  const key = bundleKey(statSync(BUNDLE));
  const path = codeCachePath(userCacheFolder(process.env), BUNDLE, 'client');
  const cachedData = readCodeCache(path, key);
  // The CommonJS wrapper, as Node's loader compiles a module.
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    { filename: BUNDLE, ...(cachedData === undefined ? {} : { cachedData }) },
  );
  if (cachedData === undefined || script.cachedDataRejected === true)
    // Made at exit, it holds the functions this run compiled too, not only the top level.
    process.once('exit', () => writeCodeCache(path, key, script.createCachedData()));
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
