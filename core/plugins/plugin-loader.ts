/**
 * Turn plugin specs (built-in names, paths, npm package names) into checked plugin objects:
 * default export, brand, API version, a valid name.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isPlugin, SDK_API_VERSION, SDK_VERSION, type Plugin } from '../../sdk/plugin.js';
import { BootError } from '../errors/boot-error.js';
import { RUNNING_BUNDLED } from './bundled.js';
import { locateSyntaxError } from './parse-error.js';
import type { SdkHookData } from './sdk-resolve-hooks.js';
import type satisfiesRange from 'semver/functions/satisfies.js';
import type validSemverRange from 'semver/ranges/valid.js';

const NAME = /^[a-z][a-z0-9-]*$/;

/** The built-in plugins by name, each loaded on its first call (host/builtin-plugins.ts). */
export type BuiltinPlugins = Readonly<Record<string, () => Promise<unknown>>>;

/** A loaded plugin and where it came from. */
export interface LoadedPlugin {
  readonly plugin: Plugin;
  readonly source: string;
  readonly builtin: boolean;
}

/** Load every spec; a failing spec throws naming the spec and the cause. */
export async function loadPlugins(
  specs: readonly string[],
  builtins: BuiltinPlugins,
  cwd: string,
): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  for (const spec of specs) {
    const builtin = builtins[spec];
    const moduleValue =
      builtin !== undefined ? await builtin() : await importExternal(spec, cwd, builtins);
    const plugin = await checkPlugin(spec, moduleValue);
    const clash = loaded.find((entry) => entry.plugin.name === plugin.name);
    if (clash !== undefined) {
      throw new BootError(
        'STACKD_PLUGIN_DUPLICATE',
        `plugin name '${plugin.name}' is used by both '${clash.source}' and '${spec}'`,
      );
    }
    const folder = storageFolderOf(plugin);
    const sharer = loaded.find((entry) => storageFolderOf(entry.plugin) === folder);
    if (sharer !== undefined) {
      throw new BootError(
        'STACKD_PLUGIN_DUPLICATE',
        `plugins '${sharer.plugin.name}' and '${plugin.name}' both store their data in '${folder}'`,
      );
    }
    loaded.push({ plugin, source: spec, builtin: builtin !== undefined });
  }
  return loaded;
}

function storageFolderOf(plugin: Plugin): string {
  return plugin.storageFolder ?? plugin.name;
}

let sdkHooksRegistered = false;

/** dist/, where tsc's output sits; `import.meta.url` is this module's unbundled file in both builds. */
const DIST = new URL('../../', import.meta.url);

/**
 * Where the host's shared modules live: the bundle when the host runs bundled. Handing an outside
 * plugin the unbundled sdk there would give it a second copy of every sdk class, symbol and
 * TypeBox registry.
 */
const SHARED = RUNNING_BUNDLED ? new URL('bundle/', DIST) : DIST;

/** Make `stackd`, `stackd/sdk` and `stackd/sdk/testing` resolve to this host's sdk everywhere. */
function registerSdkHooks(): void {
  if (sdkHooksRegistered) return;
  sdkHooksRegistered = true;
  const sdk = new URL('sdk/index.js', SHARED).href;
  const data: SdkHookData = {
    targets: {
      stackd: sdk,
      'stackd/sdk': sdk,
      'stackd/sdk/testing': new URL('testing/index.js', SHARED).href,
    },
  };
  register('./sdk-resolve-hooks.js', { parentURL: import.meta.url, data });
}

/** This host's own plugins: their files reach the sdk by relative imports, never by name. */
const OWN_PLUGINS = new URL('plugins/', DIST).href;

/**
 * The built-in whose entry `url` is (tests and benches give built-ins by path), loaded as its name
 * is. When the host runs bundled, importing the unbundled file would load a second copy of the sdk
 * and of the core modules the plugin shares with the host; and an `import()` of any file starts
 * Node's ES module loader, which a bundled boot otherwise never needs (~30 M instructions, 7 % of
 * an adopting boot up to its listening line: docs/adoption.md). Unbundled, both ways reach the same
 * module.
 */
function builtinAt(url: string, builtins: BuiltinPlugins): (() => Promise<unknown>) | undefined {
  if (!url.startsWith(OWN_PLUGINS)) return undefined;
  const [name, file, ...rest] = url.slice(OWN_PLUGINS.length).split('/');
  if (name === undefined || file !== 'index.js' || rest.length > 0) return undefined;
  return Object.hasOwn(builtins, name) ? builtins[name] : undefined;
}

async function importExternal(
  spec: string,
  cwd: string,
  builtins: BuiltinPlugins,
): Promise<unknown> {
  let url: string;
  try {
    url = resolveExternal(spec, cwd);
  } catch (error) {
    throw notFound(spec, error);
  }
  const builtin = builtinAt(url, builtins);
  if (builtin !== undefined) return builtin();
  // On Node 20 the hooks run on a thread of their own that every later import then waits on; a
  // file of this host's own plugins reaches the sdk by relative imports and needs no remapping.
  if (!url.startsWith(OWN_PLUGINS)) registerSdkHooks();
  try {
    return await import(url);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw notFound(spec, error);
    const where = locateSyntaxError(fileURLToPath(url));
    throw new BootError(
      'STACKD_PLUGIN_INVALID',
      where === undefined
        ? `plugin '${spec}' failed to load: ${error.message}`
        : `plugin '${spec}' does not parse: ${where}`,
      { cause: error },
    );
  }
}

function notFound(spec: string, error: unknown): BootError {
  return new BootError(
    'STACKD_PLUGIN_NOT_FOUND',
    `cannot load plugin '${spec}': ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}

function resolveExternal(spec: string, cwd: string): string {
  const looksLikePath = spec.startsWith('.') || isAbsolute(spec) || spec.includes('\\');
  if (looksLikePath) {
    const path = resolve(cwd, spec);
    if (!existsSync(path)) throw new Error(`no file or folder at ${path}`);
    return pathToFileURL(statSync(path).isDirectory() ? packageEntry(path) : path).href;
  }
  // An npm package name, resolved from the working directory's node_modules.
  const require = createRequire(join(cwd, 'noop.js'));
  try {
    return pathToFileURL(require.resolve(spec)).href;
  } catch {
    const packageDir = join(cwd, 'node_modules', spec);
    if (existsSync(packageDir)) return pathToFileURL(packageEntry(packageDir)).href;
    throw new Error(`package '${spec}' is not installed (looked in ${join(cwd, 'node_modules')})`);
  }
}

function packageEntry(dir: string): string {
  const manifestPath = join(dir, 'package.json');
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      main?: unknown;
      exports?: unknown;
    };
    const exported = typeof manifest.exports === 'string' ? manifest.exports : undefined;
    const main = exported ?? (typeof manifest.main === 'string' ? manifest.main : undefined);
    if (main !== undefined) return join(dir, main);
  }
  return join(dir, 'index.js');
}

async function checkPlugin(spec: string, moduleValue: unknown): Promise<Plugin> {
  const candidate = (moduleValue as { default?: unknown } | null)?.default ?? moduleValue;
  if (!isPlugin(candidate)) {
    throw new BootError(
      'STACKD_PLUGIN_INVALID',
      `'${spec}' does not default-export a plugin made with definePlugin() from the stackd sdk`,
    );
  }
  if (!NAME.test(candidate.name))
    throw new BootError(
      'STACKD_PLUGIN_INVALID',
      `plugin '${spec}' has an invalid name '${candidate.name}' (lower-case words with dashes)`,
    );
  if (candidate.apiVersion !== SDK_API_VERSION) {
    throw new BootError(
      'STACKD_PLUGIN_INCOMPATIBLE',
      `plugin '${candidate.name}' targets sdk API version ${candidate.apiVersion}; this host speaks version ${SDK_API_VERSION}`,
    );
  }
  if (candidate.sdk !== undefined) {
    const { satisfies, validRange } = await loadSemver();
    if (validRange(candidate.sdk) === null)
      throw new BootError(
        'STACKD_PLUGIN_INVALID',
        `plugin '${candidate.name}' declares an invalid sdk range '${candidate.sdk}'`,
      );
    if (!satisfies(SDK_VERSION, candidate.sdk))
      throw new BootError(
        'STACKD_PLUGIN_INCOMPATIBLE',
        `plugin '${candidate.name}' was built for sdk ${candidate.sdk}; this host provides sdk ${SDK_VERSION}`,
      );
  }
  if (candidate.storageFolder !== undefined && !NAME.test(candidate.storageFolder))
    throw new BootError(
      'STACKD_PLUGIN_INVALID',
      `plugin '${candidate.name}' has an invalid storageFolder '${String(candidate.storageFolder)}' (lower-case words with dashes)`,
    );
  if (typeof candidate.register !== 'function')
    throw new BootError(
      'STACKD_PLUGIN_INVALID',
      `plugin '${candidate.name}' has no register function`,
    );
  return candidate;
}

/**
 * semver, loaded only for a plugin that declares an sdk range (the built-ins declare none): its
 * modules cost a boot some 20 ms of CPU. The two functions only: the package's index loads all
 * ~50 of its modules.
 */
async function loadSemver(): Promise<{
  satisfies: typeof satisfiesRange;
  validRange: typeof validSemverRange;
}> {
  const [satisfies, validRange] = await Promise.all([
    import('semver/functions/satisfies.js'),
    import('semver/ranges/valid.js'),
  ]);
  return { satisfies: satisfies.default, validRange: validRange.default };
}
