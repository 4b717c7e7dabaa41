/**
 * V8's compile cache for the host's own modules (Node >= 22.1; Node 20 has no such cache and
 * this does nothing there). A boot compiles the bundle's ~20 files (some 675 modules) before it can serve; with the cache,
 * a restart or an upgrade of the same build reads their compiled code from disk instead. Node
 * keys each entry by the file's content and checks it on load, so a changed file is compiled
 * afresh, never run stale.
 *
 * The cache lives in the user's cache folder (`$XDG_CACHE_HOME/stackd`, else
 * `~/.cache/stackd`): it holds nothing but derived code, can be deleted at any time, and is
 * enabled before the data dir is known. `NODE_COMPILE_CACHE` chooses another folder and
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off, as for any Node program. A folder that cannot be
 * created leaves the boot as it was: nothing here may stop the host from starting.
 */
import nodeModule from 'node:module';
import { join } from 'node:path';
import type * as CodeCache from './code-cache.cjs';

type EnableCompileCache = (directory?: string) => { status: number; message?: string };

const enable = (nodeModule as { enableCompileCache?: EnableCompileCache }).enableCompileCache;

/**
 * Required, not imported, and only where it is used: an ES module import of a CommonJS file
 * makes Node load its CommonJS lexer and parse the file for export names, ~10 M instructions of
 * every boot on Node 20, which never gets here.
 */
function cacheDirectory(): string {
  const codeCache = nodeModule.createRequire(import.meta.url)(
    './code-cache.cjs',
  ) as typeof CodeCache;
  return join(codeCache.userCacheFolder(process.env), 'compile-cache');
}

if (enable !== undefined && process.env.NODE_COMPILE_CACHE === undefined) {
  try {
    enable(cacheDirectory());
  } catch {
    // No home folder, a read-only file system: the boot compiles as it always did.
  }
}
