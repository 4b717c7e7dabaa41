/**
 * Find a uWebSockets.js build whose native binary loads on this Node and C library.
 *
 * Three builds exist and none covers every machine: the official one (installed from its GitHub
 * tags under the name `uWebSockets.js`), `@btc-vision/uwebsockets.js` (Node 20/22/24 binaries
 * built against glibc 2.38) and `@trufflesuite/uws-js-unofficial` 20.30 (Node ≤ 20, older
 * glibc). The first that loads wins. The older build silently swaps in a pure-JS copy when its
 * binary does not load, and that copy throws "Not implemented" on the first request, killing the
 * host: a build that is not native counts as not loaded.
 */
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as UwsFloor from 'uws-floor';
import { MAX_HEADER_BYTES } from './header-limit.js';

/** The uWS API every build provides: the 20.30 typings are the floor. */
export type UwsModule = typeof UwsFloor;

/** A build that loaded. */
export interface UwsBuild {
  readonly module: UwsModule;
  /** Package name and version, e.g. `@btc-vision/uwebsockets.js 20.57.0`. */
  readonly label: string;
}

interface Candidate {
  /** The package name the build carries in its package.json. */
  readonly packageName: string;
  /** The names it may be installed under, in order. */
  readonly requests: readonly string[];
}

const CANDIDATES: readonly Candidate[] = [
  { packageName: 'uWebSockets.js', requests: ['uWebSockets.js'] },
  { packageName: '@btc-vision/uwebsockets.js', requests: ['@btc-vision/uwebsockets.js'] },
  // Installs made before the dependency was renamed hold this build under the official name.
  {
    packageName: '@trufflesuite/uws-js-unofficial',
    requests: ['@trufflesuite/uws-js-unofficial', 'uWebSockets.js'],
  },
];

/** What to do when no build loads. */
export const UWS_INSTALL_HINT =
  'use Node 20 (any glibc), or Node 22/24 on glibc >= 2.38 (Debian 13, Ubuntu 24.04), ' +
  'or install the official build: npm install uNetworking/uWebSockets.js#v20.55.0';

/** No build loaded; the message is one line naming the platform, each attempt and the fix. */
export class UwsUnavailableError extends Error {
  override readonly name = 'UwsUnavailableError';
}

const requireHere = createRequire(import.meta.url);

/**
 * Newer builds (20.36 on, e.g. `@btc-vision/uwebsockets.js`) read their header-section limit from
 * this variable when the binary loads and answer 431 past it; their default, 4 KB, is below what
 * browsers with large cookies send. Set to stackd's own limit (docs/api-conventions.md) unless the
 * operator chose one. 20.30 has no such setting: see the same document.
 */
const HEADER_LIMIT_VARIABLE = 'UWS_HTTP_MAX_HEADERS_SIZE';

/** Try each build in order; throws UwsUnavailableError when none loads natively. */
export function loadUwsBuild(): UwsBuild {
  process.env[HEADER_LIMIT_VARIABLE] ??= String(MAX_HEADER_BYTES);
  const failures: string[] = [];
  for (const candidate of CANDIDATES) {
    const attempt = tryCandidate(candidate);
    if ('build' in attempt) return attempt.build;
    failures.push(attempt.failure);
  }
  throw new UwsUnavailableError(
    `no uWebSockets.js build loads on Node ${process.version} (ABI ${process.versions.modules}, ` +
      `${process.platform}-${process.arch}) with ${describeCLibrary()}: ${failures.join('; ')}. ` +
      `To run stackd: ${UWS_INSTALL_HINT}`,
  );
}

function tryCandidate(candidate: Candidate): { build: UwsBuild } | { failure: string } {
  const installed = installedAs(candidate);
  if (installed === undefined) return { failure: `${candidate.packageName} is not installed` };
  const label = `${candidate.packageName} ${installed.manifest.version}`;
  // The entry file as resolved above: requiring the name would resolve it a third time.
  const { value, error, printed } = requireQuietly(installed.entry);
  if (error !== undefined)
    return {
      failure: `${label}: ${reasonOf(error instanceof Error ? error.message : 'it threw a non-error')}`,
    };
  if (!isNative(value)) {
    const why = printed.length > 0 ? reasonOf(printed) : 'not a native binary';
    return { failure: `${label}: ${why}, and its JavaScript fallback cannot serve requests` };
  }
  return { build: { module: value as UwsModule, label } };
}

interface Manifest {
  readonly name: string;
  readonly version: string;
}

/** An installed package: the file `require` would load and its package.json. */
interface InstalledPackage {
  readonly entry: string;
  readonly manifest: Manifest;
}

/** The first of the candidate's names installed with its package name. */
function installedAs(candidate: Candidate): InstalledPackage | undefined {
  for (const request of candidate.requests) {
    const found = installedPackage(request);
    if (found?.manifest.name === candidate.packageName) return found;
  }
  return undefined;
}

/**
 * Resolved once per name tried, and the entry file is what gets required: resolving a package
 * name walks the node_modules folders and reads its package.json's exports. Resolving it for the
 * label and for the require as well cost 6–7 M instructions of every boot on a machine where two
 * builds are tried (docs/adoption.md, "Less CPU per adopting boot, continued").
 */
function installedPackage(request: string): InstalledPackage | undefined {
  let entry: string;
  try {
    entry = requireHere.resolve(request);
  } catch {
    return undefined;
  }
  // The package's exports may hide package.json: walk up from its entry file instead.
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Manifest>;
    if (typeof parsed.name === 'string')
      return { entry, manifest: { name: parsed.name, version: String(parsed.version ?? '?') } };
  }
  return undefined;
}

/** Require a build while capturing what it prints (its fallback notice goes to the console). */
function requireQuietly(request: string): { value: unknown; error: unknown; printed: string } {
  const printed: string[] = [];
  const saved = { warn: console.warn, log: console.log, error: console.error };
  const capture = (...args: unknown[]): void => {
    printed.push(args.map(String).join(' '));
  };
  console.warn = capture;
  console.log = capture;
  console.error = capture;
  try {
    return { value: requireHere(request), error: undefined, printed: printed.join('\n') };
  } catch (error) {
    return { value: undefined, error, printed: printed.join('\n') };
  } finally {
    Object.assign(console, saved);
  }
}

/** Native functions print as `function App() { [native code] }`; the JS fallback does not. */
export function isNative(value: unknown): boolean {
  const app = (value as { App?: unknown } | null)?.App;
  return typeof app === 'function' && String(app).includes('[native code]');
}

/** The useful part of a loader error, on one line. */
function reasonOf(text: string): string {
  const glibc = /version \x60GLIBC_([\d.]+)' not found/.exec(text);
  if (glibc !== null) return `its binary needs glibc >= ${glibc[1]}`;
  const missing = /Cannot find module '[^']*?(uws_[a-z0-9_]+\.node)'/.exec(text);
  if (missing !== null) return `it has no binary for this Node (${missing[1]} missing)`;
  const firstLine = text.split('\n').find((line) => line.trim() !== '') ?? text;
  return firstLine.trim().slice(0, 200);
}

/** The C library, e.g. `glibc 2.36`; musl and others are named as well as they can be. */
export function describeCLibrary(): string {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } })
    ?.header;
  if (typeof header?.glibcVersionRuntime === 'string') return `glibc ${header.glibcVersionRuntime}`;
  if (process.platform !== 'linux') return `the ${process.platform} C library`;
  try {
    // Only when no build loads: `node:child_process` is not loaded for it at every boot.
    const { execFileSync } = process.getBuiltinModule('node:child_process');
    const output = execFileSync('ldd', ['--version'], { encoding: 'utf8', stdio: 'pipe' });
    return `a non-glibc C library (${output.split('\n')[0]?.trim() ?? 'unknown'})`;
  } catch (error) {
    // musl's ldd prints its version on stderr and exits 1.
    const stderr = (error as { stderr?: string }).stderr ?? '';
    const line = stderr.split('\n').find((text) => /musl|version/i.test(text));
    return line === undefined ? 'an unknown C library' : `musl (${line.trim()})`;
  }
}
