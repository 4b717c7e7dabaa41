/**
 * Build step after `tsc`: bundle the host, the sdk, the test kit and every built-in plugin into
 * `dist/bundle/`, one esbuild ES module build with code splitting. A boot loaded ~580 module
 * files before it could listen (its own, TypeBox's ~250, tsyringe's), and Node's ES module
 * loader pays per file (resolve, read, compile, link): the count, not the size, was the cost.
 *
 * One build for all entries is what keeps the sdk one instance: code that two entries share
 * lands in a chunk that both import, so the host, the built-in plugins, `stackd/sdk` (package
 * exports and the plugin loader's resolve hooks name `dist/bundle/sdk/index.js`) and
 * `stackd/sdk/testing` see the same classes, symbols and registries. TypeBox is bundled with
 * them (its registries are then that one instance too), and so are tsyringe (with tslib) and
 * jsonc-parser, which only core imports (no plugin can reach a second copy); every other npm
 * package stays external, loaded from node_modules as before (reflect-metadata among them: it
 * patches the global `Reflect`).
 *
 * Each module keeps the `import.meta.url` of its unbundled file in `dist/`, so files found next
 * to a module (the onboarding catalog, the graph data, the symlink scan worker, the plugin
 * loader's resolve hooks, package.json and the npm packages found through `createRequire`) are
 * found where they always were, whichever chunk the module landed in. `core/plugins/bundled.js`
 * is built as `true` here: the plugin loader then hands the bundle's sdk to outside plugins and
 * maps a built-in plugin given by its unbundled path to its bundled entry.
 *
 * Entries are tsc's output, so the bundle runs exactly the code tsc checked; unit tests keep
 * importing the unbundled modules. A failure here fails `npm run build`.
 * Run as `node dist/tools/bundle-host/main.js`.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { findPackageRoot } from '../../host/package-root.js';

/** The bundle's folder inside dist/; the substituted `import.meta.url` finds dist/ by it. */
const BUNDLE_DIR = 'bundle';

/** npm packages built into the bundle; every other bare import stays external. */
const BUNDLED_PACKAGES = /^(@sinclair\/typebox|tsyringe|tslib|jsonc-parser)(\/|$)/;

const { dir: packageDir } = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
const distDir = join(packageDir, 'dist');
const outdir = join(distDir, BUNDLE_DIR);

function entryPoints(): string[] {
  const plugins = readdirSync(join(distDir, 'plugins'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(distDir, 'plugins', entry.name, 'index.js'));
  return [
    join(distDir, 'host', 'run.js'),
    join(distDir, 'sdk', 'index.js'),
    join(distDir, 'testing', 'index.js'),
    ...plugins,
  ];
}

/**
 * The URL a module's code had unbundled, computed from the chunk it runs in: every output file
 * sits under `dist/bundle/`, so the text before the last `/bundle/` is dist/'s URL.
 */
function unbundledUrl(file: string): string {
  const path = relative(distDir, file).split(sep).join('/');
  const dist = `import.meta.url.slice(0, import.meta.url.lastIndexOf("/${BUNDLE_DIR}/") + 1)`;
  return `new URL(${JSON.stringify(path)}, ${dist}).href`;
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
      if (!source.includes('import.meta.url')) return { contents: source, loader: 'js' };
      const contents = source.replaceAll('import.meta.url', `(${unbundledUrl(args.path)})`);
      return { contents, loader: 'js' };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: entryPoints(),
  outdir,
  outbase: distDir,
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  // The packages' ES module builds: jsonc-parser's CommonJS one is UMD, whose requires a bundle
  // cannot follow.
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'node20',
  plugins: [stackdModules],
  logLevel: 'warning',
  metafile: true,
  // Linked maps chained through tsc's own (esbuild follows each input's sourceMappingURL), so a
  // stack trace read with `--enable-source-maps` names the .ts line, not a chunk's. Sources are
  // named, not embedded: the maps stay small and the .ts files are in the repository.
  sourcemap: 'linked',
  sourcesContent: false,
});
const modules = Object.keys(result.metafile.inputs).length;
const files = Object.keys(result.metafile.outputs).length;
process.stdout.write(
  `bundled ${modules} modules into ${files} files in ${relative(packageDir, outdir)}\n`,
);
