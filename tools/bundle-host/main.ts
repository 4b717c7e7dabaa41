/**
 * Build step after `tsc`: bundle the host, the sdk, the test kit and every built-in plugin into
 * one CommonJS file, `dist/bundle/stackd.cjs` (entry host/bundle-entry.ts), and write the small ES
 * modules that hand its parts out under their usual paths. A boot loaded ~580 module files before
 * it could listen (its own, TypeBox's ~250, tsyringe's), and Node's ES module loader pays per file
 * (resolve, read, compile, link): the count, not the size, was the cost. One CommonJS file is
 * also what Node 20 can compile from a V8 code cache (host/bundle-loader.cts), which its ES
 * module loader cannot.
 *
 * One file for everything keeps the sdk one instance: `stackd/sdk` (package exports and the plugin
 * loader's resolve hooks name `dist/bundle/sdk/index.js`) and `stackd/sdk/testing` are generated ES
 * modules that re-export, name by name, the parts of the bundle that bundle-loader.cts loaded once,
 * so the host, the built-in plugins and outside plugins see the same classes, symbols and
 * registries. TypeBox is bundled with them (its registries are then that one instance too), and so
 * are tsyringe (with tslib) and jsonc-parser, which only core imports (no plugin can reach a second
 * copy); every other npm package stays external, loaded from node_modules as before
 * (reflect-metadata among them: it patches the global `Reflect`). The built-in plugins are in the
 * file too, compiled on first use: a plugin left out costs its share of the file's read and
 * pre-parse, or nothing with the code cache.
 *
 * Each module keeps the `import.meta.url` of its unbundled file in `dist/`, so files found next
 * to a module (the onboarding catalog, the graph data, the symlink scan worker, the plugin
 * loader's resolve hooks, package.json and the npm packages found through `createRequire`) are
 * found where they always were. A dynamic `import()` of anything outside the bundle calls
 * `__stackd_import` instead, which the loader provides (a `vm.Script` cannot `import()` on
 * Node 20). `core/plugins/bundled.js` is built as `true` here: the plugin loader then hands the
 * bundle's sdk to outside plugins and takes a built-in plugin given by its unbundled path from
 * the bundle's list of built-ins.
 *
 * Entries are tsc's output, so the bundle runs exactly the code tsc checked; unit tests keep
 * importing the unbundled modules. A failure here fails `npm run build`.
 * Run as `node dist/tools/bundle-host/main.js`.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { findPackageRoot } from '../../host/package-root.js';
import { checkBuiltinList } from './builtin-list.js';
import { writeFacades } from './facades.js';

/** The bundle's folder inside dist/. */
const BUNDLE_DIR = 'bundle';
const BUNDLE_FILE = 'stackd.cjs';

/** npm packages built into the bundle; every other bare import stays external. */
const BUNDLED_PACKAGES = /^(@sinclair\/typebox|tsyringe|tslib|jsonc-parser)(\/|$)/;

/** A UTF-16 unit outside ASCII. */
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;
/** A line of a block comment or a line comment, as esbuild prints them. */
const COMMENT_LINE = /^\s*(\/\*|\*|\/\/)/;

/** A dynamic `import(` whose specifier is not a relative path: it leaves the bundle. */
const OUTSIDE_IMPORT = /(?<![\w$.])import\((?!\s*['"]\.)/g;

/**
 * Strict, as the ES modules were; the bundle's own URL; `__stackd_import` as the loader passes
 * it, or Node's own `import()` when Node's module loader runs the file (it can import there).
 */
const BANNER = [
  '"use strict";',
  'var __stackd_url = require("node:url").pathToFileURL(__filename).href;',
  'var __stackd_import = __stackd_import || ((specifier) => import(specifier));',
].join('\n');

const { dir: packageDir } = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
const distDir = join(packageDir, 'dist');
const outdir = join(distDir, BUNDLE_DIR);

/** The URL a module's code had unbundled: dist/ is the bundle file's folder's parent. */
function unbundledUrl(file: string): string {
  const path = relative(distDir, file).split(sep).join('/');
  return `new URL(${JSON.stringify(`../${path}`)}, __stackd_url).href`;
}

const stackdModules: Plugin = {
  name: 'stackd-modules',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      BUNDLED_PACKAGES.test(args.path) ? undefined : { path: args.path, external: true },
    );
    builder.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(distDir + sep)) return undefined;
      if (args.path === join(distDir, 'core', 'plugins', 'bundled.js'))
        return { contents: 'export const RUNNING_BUNDLED = true;\n', loader: 'js' };
      const source = readFileSync(args.path, 'utf8');
      const contents = source
        .replaceAll('import.meta.url', `(${unbundledUrl(args.path)})`)
        .replace(OUTSIDE_IMPORT, '__stackd_import(');
      return { contents, loader: 'js' };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const outfile = join(outdir, BUNDLE_FILE);
await checkBuiltinList(distDir);
const result = await build({
  entryPoints: [join(distDir, 'host', 'bundle-entry.js')],
  outfile,
  bundle: true,
  platform: 'node',
  // The packages' ES module builds: jsonc-parser's CommonJS one is UMD, whose requires a bundle
  // cannot follow.
  mainFields: ['module', 'main'],
  format: 'cjs',
  target: 'node20',
  plugins: [stackdModules],
  banner: { js: BANNER },
  logLevel: 'warning',
  metafile: true,
  // Linked maps chained through tsc's own (esbuild follows each input's sourceMappingURL), so a
  // stack trace read with `--enable-source-maps` names the .ts line, not the bundle's. Sources
  // are named, not embedded: the maps stay small and the .ts files are in the repository.
  sourcemap: 'linked',
  sourcesContent: false,
});
const bundle = asciiComments(readFileSync(outfile, 'utf8'));
assertNoOwnImports(bundle);
writeFileSync(outfile, bundle);
const facades = await writeFacades(distDir, outdir);
const modules = Object.keys(result.metafile.inputs).length;
process.stdout.write(
  `bundled ${modules} modules into ${relative(packageDir, outfile)} (${facades} entry modules)\n`,
);

/**
 * The bundle with every non-ASCII character of its comments as `?`. esbuild writes code as ASCII
 * (escapes in strings and patterns) but keeps some comments as written, and one `→` in a comment
 * made V8 hold the whole 1.6 MB source as two-byte characters: 1.6 MB more of heap for as long
 * as the host runs. One character for one UTF-16 unit, so the source map's columns hold.
 */
function asciiComments(bundle: string): string {
  const lines = bundle.split('\n');
  const offending = lines.findIndex((line) => NON_ASCII.test(line) && !COMMENT_LINE.test(line));
  if (offending >= 0)
    throw new Error(`${BUNDLE_FILE}:${offending + 1}: non-ASCII outside a comment line`);
  return bundle.replace(NON_ASCII_ALL, '?');
}

/** Only the banner may `import()`: anywhere else, code run as a `vm.Script` would throw. */
function assertNoOwnImports(bundle: string): void {
  const count = bundle.match(OUTSIDE_IMPORT)?.length ?? 0;
  if (count !== 1)
    throw new Error(`${BUNDLE_FILE}: ${count - 1} dynamic import() left outside the banner`);
}
