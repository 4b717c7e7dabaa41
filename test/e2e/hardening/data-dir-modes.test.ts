/**
 * docs/decisions.md §26: the data dir and everything the host creates in it are private (directories
 * 0700, files 0600), including a data dir and files left wider by an earlier version.
 */
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { tempDir } from '../../helpers/start-host.js';
import { fixtureBlock, program, serviceStatus, startSupervisor } from '../supervisor/support.js';

function modesBelow(root: string): Array<{ path: string; mode: number; dir: boolean }> {
  const found: Array<{ path: string; mode: number; dir: boolean }> = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const stats = statSync(path);
      found.push({ path, mode: stats.mode & 0o777, dir: entry.isDirectory() });
      if (entry.isDirectory()) walk(path);
    }
  };
  walk(root);
  return found;
}

test('every directory the host creates is 0700 and every file 0600, old wide ones tightened', async (t) => {
  const dataDir = tempDir('stackd-modes-');
  chmodSync(dataDir, 0o755);
  mkdirSync(join(dataDir, 'auth'), { mode: 0o755 });
  chmodSync(join(dataDir, 'auth'), 0o755);
  const host = await startSupervisor(
    { talker: fixtureBlock('Talker', program('long-running'), ['--stderr', 'hello']) },
    {
      plugins: [builtinPlugin('auth'), builtinPlugin('metrics')],
      host: { dataDir },
    },
  );
  try {
    await eventually(async () => (await serviceStatus(host, 'Talker')).status === 'running');
    const setup = await request(host.url, '/api/auth/setup', {
      body: { username: 'admin', password: 'admin-password' },
    });
    t.is(setup.status, 200);
    const persisted = await request(host.url, '/config', {
      body: { updates: { extra: { note: 'x' } }, persist: true },
      token: setup.body.access_token,
    });
    t.is(persisted.status, 200, persisted.text);
  } finally {
    await host.stop();
  }
  t.is(statSync(dataDir).mode & 0o777, 0o700, 'the data dir itself');
  const entries = modesBelow(dataDir);
  t.true(
    entries.some((entry) => entry.path.endsWith('.sqlite')),
    'databases were created',
  );
  t.true(
    entries.some((entry) => entry.path.endsWith('.log')),
    'logs were created',
  );
  for (const entry of entries)
    t.is(entry.mode, entry.dir ? 0o700 : 0o600, `${entry.path} is ${entry.mode.toString(8)}`);
});
