// Copies the non-TypeScript files tsc does not emit (JSON data, fixture manifests, demo config)
// from the source tree into dist/, keeping their relative paths.
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';

const outDir = process.env.STACKD_OUT ?? 'dist';
const roots = ['host', 'plugins', 'test/fixtures', 'sdk', 'core'];
const copied = new Set([
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

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (copied.has(extname(name))) cpSync(path, join(outDir, relative('.', path)));
  }
}

for (const root of roots) if (existsSync(root)) walk(root);
