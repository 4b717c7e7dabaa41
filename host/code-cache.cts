/**
 * V8 code cache files for the host's bundle on Node 20, which has no compile cache of its own
 * (`module.enableCompileCache` came with Node 22.1): the bytecode a boot compiled, saved so the
 * next boot of the same build deserializes it instead of compiling the bundle again.
 *
 * V8 checks cached data against the source's length and its own version and flags, nothing
 * more, and on Node 20 not even a checksum: a flipped byte in the payload crashed the process in
 * a trial, a truncated one was read as valid. So a file here carries a header line that binds it
 * to one bundle file (its size, mtime and inode: a rebuilt or upgraded bundle never meets an
 * older cache), one Node version and architecture, and the payload's length and CRC-32; anything
 * that does not match is ignored, as if there were no cache.
 *
 * CRC-32, not a cryptographic hash: the check is against damage (a cut write, a flipped byte),
 * which CRC-32 always catches for a flip or a burst of up to 32 bits, and the length catches a
 * cut. It is no defence against someone who can write the folder, but neither was SHA-1 (anyone
 * able to write the file can write a matching digest): the folder's owner-only mode is that
 * defence. zlib's CRC-32 reads the 1.1–1.7 MB payload in about a tenth of SHA-1's instructions
 * (SHA-1 was ~13 M instructions of every cached boot, in cachegrind: docs/adoption.md).
 *
 * The files live in the user's cache folder (`$XDG_CACHE_HOME/stackd`, else `~/.cache/stackd`,
 * folder 0700, files 0600, as the terminal client's), never in a shared one: code read from a
 * folder another user can write to would be code that user chose. Written whole (temp file, then
 * rename), so two hosts of one install starting together never leave a mix of both.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';

const FORMAT = 'stackd-code-cache/2';

/**
 * Nothing else removes these files, and each install path and Node version gets its own, so
 * without this the folder grows by one file per Node upgrade and per install ever run. A cache
 * is marked used at each read (its mtime), and one unused this long belongs to an install that
 * was removed or not started for a month: removing it costs that install one compile.
 */
const UNUSED_MS = 30 * 24 * 60 * 60 * 1000;
/** A temp file this old was left by a writer that died before its rename. */
const ABANDONED_TEMP_MS = 60 * 60 * 1000;
/** `<name>-<Node version>-<arch>-<path tag>.cache`, as {@link codeCachePath} names them. */
const CACHE_NAME = /^(.+)-v\d[^-]*-([^-]+)-([0-9a-f]+)\.cache$/;

/** `$XDG_CACHE_HOME/stackd`, else `~/.cache/stackd`. */
export function userCacheFolder(env: NodeJS.ProcessEnv): string {
  const base =
    env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== ''
      ? env.XDG_CACHE_HOME
      : join(env.HOME ?? homedir(), '.cache');
  return join(base, 'stackd');
}

/** A short name per file path (32-bit FNV-1a): two installs never take turns rewriting one file. */
export function pathTag(path: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < path.length; index += 1)
    hash = Math.imul(hash ^ path.charCodeAt(index), 0x01000193) >>> 0;
  return hash.toString(16);
}

/** The cache file of one bundle file, for this Node version and architecture. */
export function codeCachePath(folder: string, bundlePath: string, name: string): string {
  return join(folder, `${name}-${process.version}-${process.arch}-${pathTag(bundlePath)}.cache`);
}

/** What binds a cache to one build of the bundle: its size, mtime and inode, and this Node. */
export function bundleKey(stat: Pick<Stats, 'size' | 'mtimeMs' | 'ino'>): string {
  return `${process.version}:${process.arch}:${stat.size}:${stat.mtimeMs}:${stat.ino}`;
}

function digest(data: Uint8Array): string {
  return crc32(data).toString(16).padStart(8, '0');
}

/** The cached data when the file was made for `key` and is whole; otherwise undefined. */
export function readCodeCache(path: string, key: string): Buffer | undefined {
  let content: Buffer;
  try {
    content = readFileSync(path);
  } catch {
    return undefined;
  }
  const newline = content.indexOf(10);
  if (newline < 0) return undefined;
  const [format, fileKey, length, check] = content.toString('latin1', 0, newline).split(' ');
  const payload = content.subarray(newline + 1);
  if (format !== FORMAT || fileKey !== key || length !== String(payload.length)) return undefined;
  if (check !== digest(payload)) return undefined;
  markUsed(path);
  return payload;
}

/** The mtime says when the cache was last used: {@link pruneCodeCaches} goes by it. */
function markUsed(path: string): void {
  const now = new Date();
  try {
    utimesSync(path, now, now);
  } catch {
    // A read-only cache folder: the file is still good, only never pruned as unused.
  }
}

/**
 * Save `data` for `key`, whole or not at all. False when it could not be written (a read-only
 * home, a full disk): the next boot then compiles, as without a cache.
 */
export function writeCodeCache(path: string, key: string, data: Uint8Array): boolean {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const descriptor = openSync(temp, 'w', 0o600);
    try {
      writeSync(descriptor, `${FORMAT} ${key} ${data.length} ${digest(data)}\n`, null, 'latin1');
      writeSync(descriptor, data);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temp, path);
    pruneCodeCaches(path);
    return true;
  } catch {
    try {
      unlinkSync(temp);
    } catch {
      // Never created.
    }
    return false;
  }
}

/**
 * Remove, beside the cache just written at `kept`: the same file for other Node versions (the
 * same name, install path and architecture: an upgraded Node never reads them again), caches
 * unused for 30 days, and temp files of writers that died. Runs only when a cache is written, once
 * per build and Node version. A file that cannot be removed stays.
 */
function pruneCodeCaches(kept: string): void {
  const folder = dirname(kept);
  const keptName = basename(kept);
  const keptParts = CACHE_NAME.exec(keptName);
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return;
  }
  const now = Date.now();
  for (const entry of entries) {
    const isTemp = entry.endsWith('.tmp');
    if (entry === keptName || (!isTemp && !entry.endsWith('.cache'))) continue;
    const parts = CACHE_NAME.exec(entry);
    const otherVersion =
      keptParts !== null &&
      parts !== null &&
      parts[1] === keptParts[1] &&
      parts[2] === keptParts[2] &&
      parts[3] === keptParts[3];
    const file = join(folder, entry);
    try {
      const age = now - statSync(file).mtimeMs;
      if (!otherVersion && age <= (isTemp ? ABANDONED_TEMP_MS : UNUSED_MS)) continue;
      unlinkSync(file);
    } catch {
      // Gone meanwhile (another host pruned it), or not ours to remove.
    }
  }
}
