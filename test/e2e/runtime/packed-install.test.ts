/**
 * The package as a user installs it: `npm pack`, then `npm install -g` of the tarball into a
 * temporary prefix gives a working `stackd` on PATH (version, help, the demo stack starts and
 * stops). npm prefers its cache, which `npm ci` filled; what that left out is fetched. (With
 * `--offline` instead, npm 11 on a fresh cache refused: `npm ci` from a lock file without
 * download addresses had not kept every package's metadata the tarball's install asks for.)
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { request } from '../../helpers/http.js';
import { MAIN_JS, tempDir } from '../../helpers/start-host.js';

const REPO = join(MAIN_JS, '..', '..', '..');
const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
  version: string;
};

function npm(args: readonly string[], cwd: string): string {
  return execFileSync('npm', [...args, '--no-audit', '--no-fund'], {
    cwd,
    encoding: 'utf8',
    stdio: 'pipe',
    timeout: 240_000,
  });
}

test('npm pack + npm install -g gives a stackd command that runs the demo', async (t) => {
  t.timeout(420_000);
  const packDir = tempDir('stackd-pack-');
  // The build is already in dist/; the tarball carries it, so no build runs here or at install.
  npm(['pack', '--ignore-scripts', '--pack-destination', packDir], REPO);
  const tarball = readdirSync(packDir).find((name) => /^stackd-.*\.tgz$/.test(name));
  t.truthy(tarball, 'npm pack wrote stackd-<version>.tgz');
  const prefix = tempDir('stackd-global-');
  const installLog = npm(
    ['install', '-g', '--prefix', prefix, '--prefer-offline', join(packDir, tarball as string)],
    packDir,
  );
  t.notRegex(installLog, /EBADENGINE/);
  const stackd = join(prefix, 'bin', 'stackd');

  t.is(execFileSync(stackd, ['--version'], { encoding: 'utf8' }), `${version}\n`);
  const help = execFileSync(stackd, ['--help'], { encoding: 'utf8' });
  for (const option of ['--config', '--data-dir', '--host', '--port', '--plugins', '--version'])
    t.true(help.includes(option), `--help lists ${option}`);

  const dataDir = tempDir('stackd-global-data-');
  const child = spawn(stackd, ['--port', '0', '--data-dir', dataDir], {
    cwd: dataDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line:\n${output}`)), 90_000);
      child.stdout.on('data', () => {
        const match = /stackd listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1] === undefined) return;
        clearTimeout(timer);
        resolve(match[1]);
      });
    });
    t.regex(output, /\(bundled demo\)/);
    const home = await request(url, '/');
    t.is(home.status, 200);
    t.regex(home.text, new RegExp(`stackd ${version.replaceAll('.', '\\.')}`));
  } finally {
    child.kill('SIGTERM');
  }
  t.is(await exited, 0, output);
});
