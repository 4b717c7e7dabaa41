/**
 * Loads the host's bundle (`dist/bundle/stackd.cjs`: the host, the sdk, the built-in plugins and
 * the test kit in one CommonJS file), once per process. The host's entry and the ES module files
 * behind `stackd/sdk`, `stackd/sdk/testing` and each built-in plugin's bundled path all come
 * here, and Node's module cache keeps this module one instance, so they all get the one bundle.
 *
 * A boot spent a fifth of its time compiling the bundle. How its compiled code is kept:
 * - Node ≥ 22.1: Node's own compile cache (host/compile-cache.ts enables it), then a plain
 *   require.
 * - Node 20 has no such cache: the bundle is compiled as a `vm.Script` with the code cache an
 *   earlier boot of the same build left (code-cache.cts says how it is keyed and checked). A boot
 *   without a usable one saves its own a while after listening ({@link saveCodeCacheLater}), so
 *   the functions the boot compiled lazily are in it, not only the top level.
 * - A plain require also when `NODE_DISABLE_COMPILE_CACHE` is set (as for Node's own cache) and
 *   when source maps are on: Node 20 applies a bundle's source map to code its module loader
 *   compiled, not to a `vm.Script`'s.
 *
 * Code run by a `vm.Script` cannot `import()` on Node 20 without an experimental flag, so the
 * bundle's dynamic imports (npm packages, outside plugins) call `__stackd_import`, which the
 * wrapper passes in: an `import()` made here, which resolves as the bundle's own would (both sit
 * in the package).
 *
 * `NODE_DEBUG=stackd` prints what happened to the cache on stderr.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { debuglog } from 'node:util';
import { Script } from 'node:vm';
import {
  bundleKey,
  codeCachePath,
  readCodeCache,
  userCacheFolder,
  writeCodeCache,
} from './code-cache.cjs';

import type * as BundleEntry from './bundle-entry.js' with { 'resolution-mode': 'import' };

type Bundle = typeof BundleEntry;

/** The bundle `npm run build` writes (tools/bundle-host). */
export const BUNDLE_PATH = join(__dirname, '..', 'bundle', 'stackd.cjs');

/**
 * After listening, then this long: the adoptions (60–90 ms after the listen) and the first
 * requests have compiled their code by then, and a host stopped a second after its start (the
 * adoption bench kills its from-scratch host once its 50 processes run) still leaves a cache.
 */
export const SAVE_DELAY_MS = 500;

const log = debuglog('stackd');

interface PendingSave {
  readonly script: Script;
  readonly path: string;
  readonly key: string;
}

let bundle: Bundle | undefined;
let pendingSave: PendingSave | undefined;

/** The bundle's exports, loaded on the first call. */
export function loadBundle(): Bundle {
  bundle ??= load();
  return bundle;
}

function load(): Bundle {
  const { enableCompileCache } = require('node:module') as { enableCompileCache?: unknown };
  const disabled = (process.env.NODE_DISABLE_COMPILE_CACHE ?? '') !== '';
  if (enableCompileCache !== undefined || disabled || process.sourceMapsEnabled)
    return require(BUNDLE_PATH) as Bundle;
  return loadWithCodeCache();
}

/**
 * A piece of the bundle's text as read: its string is just above V8's largest regular object
 * (128 KiB), so V8 puts each piece in its large-object space, which a scavenge promotes without
 * copying. In 64 KiB pieces the text passed through the 1 MiB young generation, three scavenges
 * more per boot (perf stat, adopting boots up to listening, 8 each alternated: 422 → 419 M
 * instructions: docs/adoption.md).
 */
const PIECE_BYTES = 132 * 1024;

/**
 * The bundle's text (ASCII: the build makes it so), read a piece at a time. Read whole, its 1.6 MB
 * buffer came from mmap, and freeing it raised glibc's mmap threshold to that size: later
 * allocations up to it then stayed on the heap, and a host with 50 processes kept 3.5 MB more
 * RSS (gone with MALLOC_MMAP_THRESHOLD_ fixed). A piece's buffer raises it to just above its
 * default of 128 KiB.
 */
function readAsciiFile(descriptor: number): string {
  const piece = Buffer.allocUnsafeSlow(PIECE_BYTES);
  const parts: string[] = [];
  for (let read = readSync(descriptor, piece); read > 0; read = readSync(descriptor, piece))
    parts.push(piece.toString('latin1', 0, read));
  return parts.join('');
}

function loadWithCodeCache(): Bundle {
  // Read and keyed through one descriptor: a bundle replaced meanwhile never pairs its key with
  // the other file's code.
  const descriptor = openSync(BUNDLE_PATH, 'r');
  let source: string;
  let key: string;
  try {
    key = bundleKey(fstatSync(descriptor));
    source = readAsciiFile(descriptor);
  } finally {
    closeSync(descriptor);
  }
  const path = codeCachePath(userCacheFolder(process.env), BUNDLE_PATH, 'host');
  const cachedData = readCodeCache(path, key);
  // CommonJS's wrapper with one more parameter; on the first line, so line numbers stay.
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname, __stackd_import) {${source}\n})`,
    { filename: BUNDLE_PATH, ...(cachedData === undefined ? {} : { cachedData }) },
  );
  if (cachedData === undefined || script.cachedDataRejected === true) {
    const why = cachedData === undefined ? 'absent, of another build or damaged' : 'rejected by V8';
    log('code cache %s: %s', why, path);
    pendingSave = { script, path, key };
  } else log('code cache used: %s', path);
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const importModule = (specifier: string): Promise<unknown> => import(specifier);
  const bundleModule = { exports: {} };
  const { exports: bundleExports } = bundleModule;
  const requireHere = createRequire(BUNDLE_PATH);
  const folder = dirname(BUNDLE_PATH);
  wrapper.call(
    bundleExports,
    bundleExports,
    requireHere,
    bundleModule,
    BUNDLE_PATH,
    folder,
    importModule,
  );
  return bundleModule.exports as Bundle;
}

/**
 * Save the code cache a while from now, when this boot had none (or V8 refused it). Never keeps
 * the process alive; a failed write only means the next boot compiles too.
 */
export function saveCodeCacheLater(delayMs: number = SAVE_DELAY_MS): void {
  const save = pendingSave;
  if (save === undefined) return;
  pendingSave = undefined;
  const timer = setTimeout(() => {
    const written = writeCodeCache(save.path, save.key, save.script.createCachedData());
    log('code cache %s: %s', written ? 'written' : 'not written', save.path);
  }, delayMs);
  timer.unref();
}
