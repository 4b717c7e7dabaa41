/**
 * A full data dir (a 3 MB tmpfs, filled): writes answer 507 naming the data dir, the host log
 * says so once per cause per minute, /health is unhealthy with the reason and healthy again
 * once space is back; temp files of interrupted writes are removed at start. Needs the right
 * to mount a tmpfs (root in a container, as in CI); skipped with a note otherwise.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { tempDir } from '../../helpers/start-host.js';
import { startSupervisor } from '../supervisor/support.js';

const mountPoint = tempDir('stackd-tinyfs-');
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mountPoint], { stdio: 'ignore' });
  mounted = true;
} catch {
  /* not allowed here */
}
test.after.always(() => {
  if (mounted) execFileSync('umount', ['-l', mountPoint], { stdio: 'ignore' });
});

function fill(dir: string): string {
  const filler = join(dir, 'filler');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (let index = 0; index < 1_000; index += 1) writeFileSync(filler, chunk, { flag: 'a' });
  } catch {
    /* ENOSPC: full */
  }
  return filler;
}

(mounted ? test : test.skip)(
  'a full data dir: 507 naming it, quiet log, /health says why',
  async (t) => {
    const dataDir = join(mountPoint, 'data');
    mkdirSync(dataDir, { recursive: true });
    const stale = join(dataDir, '.settings.json.4242.abcdefabcdef.tmp');
    writeFileSync(stale, 'half-written');
    const host = await startSupervisor(
      {
        chatty: {
          enabled: true,
          process_name: 'Chatty',
          command: ['sh', '-c', 'while true; do echo chatter line; sleep 0.005; done'],
        },
      },
      { plugins: [builtinPlugin('auth')], host: { dataDir } },
    );
    t.teardown(() => host.stop());
    t.false(existsSync(stale), 'the stale temp file was removed at start');
    const filler = fill(mountPoint);

    const setup = await request(host.url, '/api/auth/setup', {
      body: { username: 'admin', password: 'admin-password' },
    });
    t.is(setup.status, 507, setup.text);
    t.is(setup.body.code, 'STORAGE_FULL');
    t.true((setup.body.detail as string).includes(dataDir), 'the detail names the data dir');
    const health = await request(host.url, '/health');
    t.is(health.body.status, 'unhealthy');
    t.regex(health.body.details as string, /data dir .* is full/);
    // The chatty process keeps failing to write its log: one line per cause, not hundreds.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const noSpace = host
      .output()
      .split('\n')
      .filter((line) => line.includes('ENOSPC'));
    t.true(noSpace.length <= 2, `${noSpace.length} ENOSPC lines`);

    rmSync(filler);
    await eventually(async () => (await request(host.url, '/health')).body.status === 'healthy', {
      what: 'healthy again once space is back',
    });
    const retried = await request(host.url, '/api/auth/setup', {
      body: { username: 'admin', password: 'admin-password' },
    });
    t.is(retried.status, 200, 'nothing half-written blocks the retry');
  },
);
