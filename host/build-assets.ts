/**
 * Build step after `tsc`: copy the files tsc does not emit (the demo config, plugin data, test
 * fixture manifests and catalogs) from the source tree into the output folder, keeping their
 * paths, and link each example plugin package to this package (`examples/<x>/node_modules/stackd`)
 * so it builds and loads against `stackd/sdk` exactly as an installed third-party plugin does.
 * Run as `node dist/host/build-assets.js [OUTDIR]`.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPackageRoot } from './package-root.js';

const ROOTS = ['host', 'plugins', 'sdk', 'core', 'test/fixtures'];
const COPIED = new Set([
  '.json',
  '.mjs',
  '.cjs',
  '.txt',
  '.md',
  '.yaml',
  '.yml',
  '.xml',
  '.conf',
  '.py',
  '.html',
  '.css',
]);

function copyTree(root: string, dir: string, outDir: string): number {
  let copied = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) copied += copyTree(root, path, outDir);
    else if (COPIED.has(extname(name))) {
      cpSync(path, join(outDir, relative(root, path)));
      copied += 1;
    }
  }
  return copied;
}

const { dir: packageDir } = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
const outDir = join(packageDir, process.argv[2] ?? 'dist');
let total = 0;
for (const root of ROOTS) {
  const source = join(packageDir, root);
  if (existsSync(source)) total += copyTree(packageDir, source, outDir);
}
process.stdout.write(`copied ${total} asset files to ${relative(packageDir, outDir) || '.'}\n`);

/** Give every example package a `node_modules/stackd` link to this package. */
function linkExamples(): number {
  const examples = join(packageDir, 'examples');
  if (!existsSync(examples)) return 0;
  let linked = 0;
  for (const name of readdirSync(examples)) {
    const modules = join(examples, name, 'node_modules');
    if (!existsSync(join(examples, name, 'package.json')) || existsSync(join(modules, 'stackd')))
      continue;
    mkdirSync(modules, { recursive: true });
    symlinkSync(relative(modules, packageDir), join(modules, 'stackd'), 'dir');
    linked += 1;
  }
  return linked;
}
const linked = linkExamples();
if (linked > 0) process.stdout.write(`linked ${linked} example package(s) to stackd\n`);
