/**
 * A `--data-dir` or `--config` the host cannot use ends the real program within a second with
 * exit 1 and one line on stderr naming the path and what is wrong: no hang (Node's recursive
 * mkdir loops forever under /proc), no raw errno text.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { MAIN_JS, startHost, tempDir } from '../../helpers/start-host.js';

interface Outcome {
  readonly code: number | null;
  readonly stderr: string;
  readonly stdout: string;
  readonly elapsedMs: number;
}

/** Run the host with these arguments; SIGKILL after 10 s so a hang fails instead of blocking. */
function runHost(args: readonly string[]): Promise<Outcome> {
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN_JS, '--port', '0', '--host', '127.0.0.1', ...args], {
    cwd: tempDir('stackd-paths-cwd-'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, elapsedMs: performance.now() - started });
    }),
  );
}

/** Node alone needs a few hundred ms on a loaded machine: the bound leaves room for that. */
const PROMPT_MS = 2_500;

const cases: ReadonlyArray<{
  readonly title: string;
  readonly args: () => string[];
  readonly line: RegExp;
}> = [
  {
    title: 'a data dir under /proc',
    args: () => ['--data-dir', '/proc/forbidden'],
    line: /^stackd: data dir \/proc\/forbidden: \/proc is on the kernel's proc filesystem/,
  },
  {
    title: 'a data dir under /sys',
    args: () => ['--data-dir', '/sys/stackd/data'],
    line: /^stackd: data dir \/sys\/stackd\/data: \/sys is on the kernel's sysfs filesystem/,
  },
  {
    title: 'a data dir that is a file',
    args: () => {
      const file = join(tempDir(), 'afile');
      writeFileSync(file, 'x');
      return ['--data-dir', file];
    },
    line: /^stackd: data dir \/\S+\/afile is a file, not a directory$/,
  },
  {
    title: 'a data dir below a file',
    args: () => {
      const file = join(tempDir(), 'afile');
      writeFileSync(file, 'x');
      return ['--data-dir', join(file, 'data')];
    },
    line: /^stackd: data dir \/\S+\/afile\/data: \/\S+\/afile is a file, not a directory$/,
  },
  {
    title: 'a missing config file',
    args: () => ['--data-dir', tempDir(), '--config', join(tempDir(), 'nowhere.json')],
    line: /^stackd: config file \/\S+\/nowhere\.json: not found$/,
  },
  {
    title: 'a config path that is a directory',
    args: () => ['--data-dir', tempDir(), '--config', tempDir('stackd-config-dir-')],
    line: /^stackd: config file \/\S+stackd-config-dir-\S+ is a directory, not a file$/,
  },
  {
    title: 'a config path below a file',
    args: () => {
      const file = join(tempDir(), 'afile');
      writeFileSync(file, 'x');
      return ['--data-dir', tempDir(), '--config', join(file, 'stackd.json')];
    },
    line: /^stackd: config file \/\S+\/afile\/stackd\.json: \/\S+\/afile is a file, not a directory$/,
  },
];

for (const { title, args, line } of cases) {
  test.serial(`${title}: one line naming the path, exit 1, promptly`, async (t) => {
    const outcome = await runHost(args());
    t.is(outcome.code, 1, outcome.stderr);
    const lines = outcome.stderr.trimEnd().split('\n');
    t.is(lines.length, 1, outcome.stderr);
    t.regex(lines[0] ?? '', line);
    t.is(outcome.stdout, '');
    t.true(outcome.elapsedMs < PROMPT_MS, `took ${Math.round(outcome.elapsedMs)} ms`);
  });
}

// Permission bits do not bind root, so these two only mean something for an ordinary user.
const asUser = process.getuid?.() === 0 ? test.skip : test.serial;

asUser('a data dir in a read-only tree: permission denied, named', async (t) => {
  const readOnly = tempDir();
  chmodSync(readOnly, 0o500);
  const outcome = await runHost(['--data-dir', join(readOnly, 'a', 'b')]);
  t.is(outcome.code, 1);
  t.regex(
    outcome.stderr,
    /^stackd: data dir \S+\/a\/b: \S+ is not writable \(permission denied\)\n$/,
  );
  t.true(outcome.elapsedMs < PROMPT_MS);
});

asUser('an unreadable config file: permission denied, named', async (t) => {
  const dir = tempDir();
  mkdirSync(join(dir, 'conf'));
  const file = join(dir, 'conf', 'stackd.json');
  writeFileSync(file, '{}');
  chmodSync(file, 0o000);
  const outcome = await runHost(['--data-dir', tempDir(), '--config', file]);
  t.is(outcome.code, 1);
  t.regex(outcome.stderr, /^stackd: config file \S+ is not readable \(permission denied\)\n$/);
});

test.serial('a data dir several levels below an existing one is created, private', async (t) => {
  const dataDir = join(tempDir(), 'several', 'levels', 'data');
  const host = await startHost({ dataDir, cwd: tempDir(), plugins: [] });
  try {
    t.is(statSync(dataDir).mode & 0o777, 0o700);
    t.is(statSync(join(dataDir, '..')).mode & 0o777, 0o700);
  } finally {
    await host.stop();
  }
});
