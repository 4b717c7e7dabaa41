/**
 * The launch's program check: a name is found on PATH as the OS would find it, a path relative
 * to the working dir; the launches of a wave checking one program at once share one lookup, and
 * nothing outlives it (a program removed afterwards is missing for the next check).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { programExists } from '../../../../plugins/supervisor/cgroups/cgroup-wrapper.js';

/** A PATH of `dirs` empty folders, the program in the last one. */
function searchPath(dirs: number) {
  const root = mkdtempSync(join(tmpdir(), 'cgroup-wrapper-'));
  const folders = Array.from({ length: dirs }, (_, index) => join(root, `bin${index}`));
  for (const folder of folders) mkdirSync(folder);
  const program = join(folders.at(-1) ?? root, 'tool');
  writeFileSync(program, '#!/bin/sh\n');
  chmodSync(program, 0o755);
  return { root, path: folders.join(':'), program };
}

test('a name is found on PATH, and missing once removed', async (t) => {
  const { root, path, program } = searchPath(4);
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  t.true(await programExists('tool', root, path));
  t.true(await programExists('tool', root, path));
  rmSync(program);
  t.false(await programExists('tool', root, path));
  t.false(await programExists('other', root, path));
});

test('a path is checked against the working dir, not PATH', async (t) => {
  const { root, path } = searchPath(2);
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  t.true(await programExists('./bin1/tool', root, ''));
  t.true(await programExists(join(root, 'bin1', 'tool'), '/', path));
  t.false(await programExists('./tool', root, path));
});

test('a wave of checks of one program shares one lookup', async (t) => {
  const { root, path } = searchPath(8);
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const wave = Array.from({ length: 100 }, () => programExists('tool', root, path));
  t.is(new Set(wave).size, 1);
  t.deepEqual(
    await Promise.all(wave),
    Array.from({ length: 100 }, () => true),
  );
  // Another PATH is another lookup, with its own answer.
  const elsewhere = programExists('tool', root, join(root, 'bin0'));
  t.not(elsewhere, wave[0]);
  t.false(await elsewhere);
  // Once the wave's lookup ended, the next check is a new one.
  const next = programExists('tool', root, path);
  t.not(next, wave[0]);
  t.true(await next);
});
