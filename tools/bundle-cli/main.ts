/**
 * Build step after `tsc`: bundle the terminal client into one CommonJS file,
 * `dist/cli/client.bundle.cjs`, which `stackd` loads for a client subcommand (cli/client-loader).
 * Every `stackd status` paid Node's module resolution (stat calls, package.json reads, the
 * node_modules walk) and a read and compile per module; one file instead of ~20 client modules
 * and commander's 7 cut the client's start measurably. Entry is tsc's output of
 * `cli/program.cts`, so the bundle runs exactly the code tsc checked.
 * Run as `node dist/tools/bundle-cli/main.js`.
 */
import { statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { findPackageRoot } from '../../host/package-root.js';

/** The bundle, next to the modules it bundles. */
const BUNDLE_PATH = join('dist', 'cli', 'client.bundle.cjs');

/**
 * Kept out of the bundle, required at run time as from the unbundled client: undici, the
 * WebSocket of `stackd logs -f` only, ~1 MB that every other command would parse.
 */
const EXTERNAL = ['undici'];

const { dir: packageDir } = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
const outfile = join(packageDir, BUNDLE_PATH);
const result = await build({
  entryPoints: [join(packageDir, 'dist', 'cli', 'program.cjs')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: EXTERNAL,
  logLevel: 'warning',
  metafile: true,
});
const modules = Object.keys(result.metafile.inputs).length;
const kib = Math.round(statSync(outfile).size / 1024);
process.stdout.write(
  `bundled ${modules} modules into ${relative(packageDir, outfile)} (${kib} KiB)\n`,
);
