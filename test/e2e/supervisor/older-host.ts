/**
 * A host built from an older commit of this repository, so a test can upgrade from it as a user
 * would: the commit's tree is taken with `git archive` (no worktree is registered), its own
 * dependencies are installed from its own lock file (`npm ci`), it is compiled with its own
 * TypeScript (host, core, sdk and plugins only), and it is kept in the temp dir under the
 * commit's name, so only the first run pays for the install and the build.
 *
 * Its own install, not this checkout's: dependencies move between commits (the uWebSockets.js
 * alias of older commits is not in today's lock file), and a link to another checkout's install
 * dangles once that checkout is gone.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
/** The checkout these compiled tests belong to (`<root>/dist/test/e2e/supervisor`). */
const ROOT = join(here, '..', '..', '..', '..');
/** Written into `.built` by this way of building: a kept build without it is made again. */
const BUILD_KIND = 'own-install';

/** The entry point (`dist/host/main.js`) of a host built from `commit`. */
export async function olderHost(commit: string): Promise<string> {
  const { stdout } = await run('git', ['-C', ROOT, 'rev-parse', '--verify', `${commit}^{commit}`]);
  const sha = stdout.trim();
  const dir = join(tmpdir(), `stackd-host-${sha}`);
  const main = join(dir, 'dist', 'host', 'main.js');
  if (builtHere(dir)) return main;
  const staging = mkdtempSync(join(tmpdir(), `stackd-host-${sha.slice(0, 8)}-`));
  try {
    await run('sh', ['-c', `git -C "$0" archive "$1" | tar -x -C "$2"`, ROOT, sha, staging]);
    // Some commits carry a stray node_modules link of their own: the commit's lock file counts.
    rmSync(join(staging, 'node_modules'), { recursive: true, force: true });
    await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: staging,
      maxBuffer: 64 * 1024 * 1024,
    });
    // The program only: its tests, benches and tools would triple the build.
    const config = {
      extends: './tsconfig.json',
      compilerOptions: { incremental: false, declaration: false, sourceMap: false },
      include: ['sdk', 'core', 'host', 'plugins'],
    };
    writeFileSync(join(staging, 'tsconfig.older.json'), JSON.stringify(config));
    const tsc = join(staging, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', 'tsconfig.older.json'], { cwd: staging });
    await run(process.execPath, [join('dist', 'host', 'build-assets.js')], { cwd: staging });
    writeFileSync(join(staging, '.built'), `${sha}\n${BUILD_KIND}\n`);
    // Another test run may have finished the same build meanwhile: either copy is good.
    if (!builtHere(dir)) {
      rmSync(dir, { recursive: true, force: true });
      renameSync(staging, dir);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return main;
}

/** Whether `dir` holds a finished build made this way (older ones linked another install). */
function builtHere(dir: string): boolean {
  try {
    return readFileSync(join(dir, '.built'), 'utf8').split('\n').includes(BUILD_KIND);
  } catch {
    return false;
  }
}
