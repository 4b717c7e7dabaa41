/**
 * A host built from an older commit of this repository, so a test can upgrade from it: the
 * commit's tree is taken with `git archive` (no worktree is registered), compiled with this
 * checkout's TypeScript and node_modules (host, core, sdk and plugins only), and kept in the
 * temp dir under the commit's name, so only the first run pays for the build.
 */
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
/** The checkout these compiled tests belong to (`<root>/dist/test/e2e/supervisor`). */
const ROOT = join(here, '..', '..', '..', '..');

/** The entry point (`dist/host/main.js`) of a host built from `commit`. */
export async function olderHost(commit: string): Promise<string> {
  const { stdout } = await run('git', ['-C', ROOT, 'rev-parse', '--verify', `${commit}^{commit}`]);
  const sha = stdout.trim();
  const dir = join(tmpdir(), `stackd-host-${sha}`);
  const main = join(dir, 'dist', 'host', 'main.js');
  if (existsSync(join(dir, '.built'))) {
    useThisInstall(dir);
    return main;
  }
  const staging = mkdtempSync(join(tmpdir(), `stackd-host-${sha.slice(0, 8)}-`));
  try {
    await run('sh', ['-c', `git -C "$0" archive "$1" | tar -x -C "$2"`, ROOT, sha, staging]);
    // Some commits carry a stray node_modules link of their own: this checkout's install counts.
    rmSync(join(staging, 'node_modules'), { recursive: true, force: true });
    useThisInstall(staging);
    // The program only: its tests, benches and tools would triple the build.
    const config = {
      extends: './tsconfig.json',
      compilerOptions: { incremental: false, declaration: false, sourceMap: false },
      include: ['sdk', 'core', 'host', 'plugins'],
    };
    writeFileSync(join(staging, 'tsconfig.older.json'), JSON.stringify(config));
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', 'tsconfig.older.json'], { cwd: staging });
    await run(process.execPath, [join('dist', 'host', 'build-assets.js')], { cwd: staging });
    writeFileSync(join(staging, '.built'), `${sha}\n`);
    // Another test run may have finished the same build meanwhile: either copy is good.
    if (!existsSync(join(dir, '.built'))) {
      rmSync(dir, { recursive: true, force: true });
      renameSync(staging, dir);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  useThisInstall(dir);
  return main;
}

/**
 * Points the build's `node_modules` at this checkout's install. A kept build may come from
 * another checkout of the same commit (a removed worktree, an earlier CI clone): its link would
 * dangle, and the older host would fail to import its first package.
 */
function useThisInstall(dir: string): void {
  const link = join(dir, 'node_modules');
  const wanted = join(ROOT, 'node_modules');
  if (linkTarget(link) === wanted) return;
  const fresh = `${link}.${process.pid}`;
  rmSync(fresh, { recursive: true, force: true });
  symlinkSync(wanted, fresh);
  renameSync(fresh, link);
}

function linkTarget(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}
