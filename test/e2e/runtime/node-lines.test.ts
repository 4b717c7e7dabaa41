/**
 * The host under Node 20, 22 and 24 binaries from npm: where a uWebSockets.js build loads, the
 * end-to-end smoke passes; where none does (Node 22/24 on glibc < 2.38), the host prints the
 * one-line explanation and exits 1 without creating anything.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { nodeBinary, nodeInstallCommand } from '../../helpers/node-lines.js';
import { FIXTURES_DIR, MAIN_JS, tempDir } from '../../helpers/start-host.js';

const REPO = join(MAIN_JS, '..', '..', '..');
const LOADER = join(REPO, 'dist', 'core', 'http', 'uws-loader.js');
const SMOKE = join(FIXTURES_DIR, 'programs', 'runtime-smoke.js');

/** The build loaded under `node`, or undefined when none loads. */
function loadedBuild(node: string): string | undefined {
  const probe = `import(${JSON.stringify(LOADER)}).then((m) => { try { console.log('loaded ' + m.loadUwsBuild().label); } catch { console.log('none'); } })`;
  const output = execFileSync(node, ['-e', probe], { encoding: 'utf8' }).trim();
  return output.startsWith('loaded ') ? output.slice('loaded '.length) : undefined;
}

function manifestOf(dir: string): { name?: string; version?: string } {
  const file = join(REPO, 'node_modules', dir, 'package.json');
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string })
    : {};
}

/** The message of uws-loader.ts for this machine, built from the installed packages. */
function expectedMessage(node: string): string {
  const [version, abi] = execFileSync(
    node,
    ['-p', 'process.version + " " + process.versions.modules'],
    {
      encoding: 'utf8',
    },
  )
    .trim()
    .split(' ');
  const header = process.report.getReport() as { header: { glibcVersionRuntime: string } };
  const official = manifestOf('uWebSockets.js');
  const btc = manifestOf('@btc-vision/uwebsockets.js');
  const truffle = [manifestOf('@trufflesuite/uws-js-unofficial'), official].find(
    (manifest) => manifest.name === '@trufflesuite/uws-js-unofficial',
  );
  return (
    `stackd: no uWebSockets.js build loads on Node ${version} (ABI ${abi}, linux-x64) with glibc ${header.header.glibcVersionRuntime}: ` +
    `${official.name === 'uWebSockets.js' ? `uWebSockets.js ${official.version}: its binary needs glibc >= 2.38` : 'uWebSockets.js is not installed'}; ` +
    `@btc-vision/uwebsockets.js ${btc.version}: its binary needs glibc >= 2.38; ` +
    `@trufflesuite/uws-js-unofficial ${truffle?.version}: it has no binary for this Node (uws_linux_x64_${abi}.node missing), and its JavaScript fallback cannot serve requests. ` +
    'To run stackd: use Node 20 (any glibc), or Node 22/24 on glibc >= 2.38 (Debian 13, Ubuntu 24.04), or install the official build: npm install uNetworking/uWebSockets.js#v20.55.0\n'
  );
}

for (const major of [20, 22, 24]) {
  const node = nodeBinary(major);
  if (node === undefined) {
    test.skip(`Node ${major}: not installed (CI installs it: ${nodeInstallCommand(major)})`, () => {});
    continue;
  }
  test(`Node ${major}: the smoke passes where a uWS build loads, else one line and exit 1`, (t) => {
    const build = loadedBuild(node);
    if (build !== undefined) {
      t.log(`Node ${major} loads ${build}: running the smoke`);
      const smoke = spawnSync(node, [SMOKE], { encoding: 'utf8', timeout: 180_000 });
      t.is(smoke.status, 0, smoke.stdout + smoke.stderr);
      t.regex(smoke.stdout, new RegExp(`^smoke ok: v${major}\\.\\d+\\.\\d+ ${build}`));
      return;
    }
    t.log(`Node ${major}: no uWS build loads here; checking the refusal`);
    const dataDir = join(tempDir('stackd-node-line-'), 'data');
    const run = spawnSync(node, [MAIN_JS, '--port', '0', '--data-dir', dataDir], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    t.is(run.status, 1);
    t.is(run.stdout, '');
    t.is(run.stderr, expectedMessage(node));
    t.false(existsSync(dataDir), 'nothing is created when the host cannot serve');
  });
}
