/**
 * The bundle's source maps, chained through tsc's: a stack trace printed with
 * `--enable-source-maps` names the .ts file and line of the repository's source, not a line of
 * `dist/bundle/stackd.cjs`. The error is a real one: the bundled sdk's `requireProcessEntry` refusing a
 * name it does not know, as the API does for an unknown process.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import test from 'ava';

const distDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const repoDir = dirname(distDir);
const bundledSdk = pathToFileURL(join(distDir, 'bundle', 'sdk', 'index.js')).href;
const source = join(repoDir, 'sdk', 'process-blocks.ts');

/** The stack of the bundled sdk's refusal, printed by a fresh Node given `nodeOptions`. */
function bundledStack(nodeOptions: readonly string[]): string {
  const program = [
    `const { requireProcessEntry } = await import(${JSON.stringify(bundledSdk)});`,
    "try { requireProcessEntry([], 'no such process'); } catch (error) {",
    '  process.stdout.write(error.stack);',
    '}',
  ].join('\n');
  const run = spawnSync(process.execPath, [...nodeOptions, '--input-type=module', '-e', program], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`node exited ${String(run.status)}: ${run.stderr}`);
  return run.stdout;
}

/** The 1-based line of `requireProcessEntry`'s throw in the .ts source. */
function throwLine(): number {
  const lines = readFileSync(source, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.includes('function requireProcessEntry'));
  const offset = lines.slice(start).findIndex((line) => line.includes('throw new NotFoundError'));
  if (start < 0 || offset < 0)
    throw new Error(`requireProcessEntry's throw not found in ${source}`);
  return start + offset + 1;
}

test('with --enable-source-maps, a stack frame of the bundle names the .ts source and its line', (t) => {
  const stack = bundledStack(['--enable-source-maps']);
  t.true(
    stack.includes(`requireProcessEntry (${source}:${throwLine()}:`),
    `expected ${source}:${throwLine()} in:\n${stack}`,
  );
});

test('without source maps, the same frame names the bundle file (the maps are what maps it)', (t) => {
  const stack = bundledStack([]);
  t.regex(stack, /requireProcessEntry \(\/\S+\/dist\/bundle\/stackd\.cjs:\d+:\d+\)/);
  t.false(stack.includes(source));
});
