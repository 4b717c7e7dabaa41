/** The layering figures on a small real tree, and on this repository. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import test from 'ava';
import { readGraph } from '../../../tools/layering/import-graph.js';
import { layeringReport } from '../../../tools/layering/layering.js';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layering-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('a planted cycle, an upward sdk import, a cross-plugin import and a two-way core pair are all found', (t) => {
  const root = tree({
    'sdk/index.ts': "import { x } from '../core/a/x.js';\nexport const y = x;\n",
    'core/a/x.ts': "import { z } from '../b/z.js';\nexport const x = 1 + z;\n",
    'core/b/z.ts':
      "import { x } from '../a/x.js';\nexport const z = 2;\nexport const X = () => x;\n",
    // A type-only back-import is no cycle at run time.
    'core/a/p.ts':
      "import type { q } from './q.js';\nexport const p = 1;\nexport type Q = typeof q;\n",
    'core/a/q.ts': "import { p } from './p.js';\nexport const q = p;\n",
    'plugins/one/index.ts': "import { w } from '../two/w.js';\nexport const v = w;\n",
    'plugins/two/w.ts':
      'export const w = 3;\nexport function long(): number {\n  const a = 1;\n  return a;\n}\n',
  });
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const report = layeringReport(readGraph(root));
  t.deepEqual(report.sdkUpward, ['sdk/index.ts → core/a/x.ts']);
  t.deepEqual(report.crossPlugin, ['plugins/one/index.ts → plugins/two/w.ts']);
  t.deepEqual(report.coreTwoWay, ['a ↔ b']);
  t.deepEqual(report.cycles, [['core/a/x.ts', 'core/b/z.ts']]);
  t.deepEqual(report.longestFunction, { path: 'plugins/two/w.ts', name: 'long', lines: 4 });
  t.deepEqual(
    report.byArea.map(({ area, longestFunction }) => [area, longestFunction.name]),
    [
      ['core', 'X'],
      ['plugins', 'long'],
      ['sdk', ''],
    ],
  );
});

const MAIN = resolve(import.meta.dirname, '../../../tools/layering/main.js');

function runMain(root: string): { status: number | null; stdout: string } {
  const run = spawnSync(process.execPath, [MAIN, root], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout };
}

test('the command fails on a two-way pair of core folders alone, and passes once it is one-way', (t) => {
  const root = tree({
    'core/a/x.ts': "import type { Z } from '../b/z.js';\nexport type X = Z;\n",
    'core/b/z.ts':
      "import type { X } from '../a/x.js';\nexport type Z = string;\nexport type Y = X;\n",
  });
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const tangled = runMain(root);
  t.is(tangled.status, 1);
  t.regex(tangled.stdout, /core folders importing each other: 1\n {2}a ↔ b\n/);
  t.regex(tangled.stdout, /import cycles: 0\n/);
  writeFileSync(join(root, 'core/b/z.ts'), 'export type Z = string;\n');
  const untangled = runMain(root);
  t.is(untangled.status, 0);
  t.regex(untangled.stdout, /core folders importing each other: 0\n/);
});

test('this repository: nothing imports upward from the sdk, no plugin imports another, no two-way core pair, no cycles', (t) => {
  const report = layeringReport(readGraph(resolve(import.meta.dirname, '../../../..')));
  t.deepEqual(report.sdkUpward, []);
  t.deepEqual(report.crossPlugin, []);
  t.deepEqual(report.coreTwoWay, []);
  t.deepEqual(report.cycles, []);
  t.true(report.largestFile.lines > 0);
});
