/**
 * A descendant that clears its environment and leaves the session (`env -i setsid`) is invisible
 * to the launch marker and the process group; its cgroup still holds it. It is ended by a stop,
 * by the host's stop, and — after a host SIGKILL — by the next host's clean-up of leftover
 * cgroups. Runs where the machine lets stackd create cgroups (this one: cgroup v1).
 */
import { existsSync, readFileSync } from 'node:fs';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { tempDir } from '../../helpers/start-host.js';
import { startSupervisor } from '../supervisor/support.js';
import { launchCgroupDirs, pidsRunning, stackdCgroupBases, uniqueSeconds } from './support.js';

function escaper(escaped: string, stayed: string): Record<string, unknown> {
  return {
    escaper: {
      enabled: true,
      process_name: 'Escaper',
      command: ['sh', '-c', `env -i setsid sleep ${escaped} & exec sleep ${stayed}`],
    },
  };
}

test('stop-service kills the env -i setsid descendant and removes the cgroup', async (t) => {
  const [escaped, stayed] = [uniqueSeconds(), uniqueSeconds()];
  const dataDir = tempDir('stackd-cg-stop-');
  const host = await startSupervisor(escaper(escaped, stayed), { host: { dataDir } });
  t.teardown(() => host.stop());
  await eventually(() => pidsRunning(['sleep', escaped]).length === 1, { what: 'the escapee' });
  const [pid] = pidsRunning(['sleep', escaped]);
  t.notRegex(readFileSync(`/proc/${pid}/environ`, 'utf8'), /STACKD_LAUNCH/, 'no marker to see');
  const dirs = launchCgroupDirs(dataDir);
  t.true(dirs.length > 0, 'a launch cgroup exists');
  const stopped = await request(host.url, '/process/stop-service', {
    body: { process_name: 'Escaper' },
  });
  t.is(stopped.status, 200, stopped.text);
  await eventually(() => pidsRunning(['sleep', escaped]).length === 0, {
    what: 'the escapee to be killed with its cgroup',
  });
  t.deepEqual(pidsRunning(['sleep', stayed]), []);
  await eventually(() => dirs.every((dir) => !existsSync(dir)), {
    what: 'the launch cgroup to be removed',
  });
});

test('host SIGTERM kills the escapee and removes stackd cgroups', async (t) => {
  const [escaped, stayed] = [uniqueSeconds(), uniqueSeconds()];
  const dataDir = tempDir('stackd-cg-term-');
  const host = await startSupervisor(escaper(escaped, stayed), { host: { dataDir } });
  await eventually(() => pidsRunning(['sleep', escaped]).length === 1, { what: 'the escapee' });
  await host.stop('SIGTERM');
  await eventually(() => pidsRunning(['sleep', escaped]).length === 0, {
    what: 'the escapee to be gone after the host stopped',
  });
  t.deepEqual(stackdCgroupBases(dataDir), [], 'no stackd cgroup left');
});

test('after a host SIGKILL the next start kills the escapee and cleans up', async (t) => {
  const [escaped, stayed] = [uniqueSeconds(), uniqueSeconds()];
  const dataDir = tempDir('stackd-cg-kill-');
  const first = await startSupervisor(escaper(escaped, stayed), { host: { dataDir } });
  await eventually(() => pidsRunning(['sleep', escaped]).length === 1, { what: 'the escapee' });
  await first.stop('SIGKILL');
  t.is(pidsRunning(['sleep', escaped]).length, 1, 'the escapee outlived the killed host');
  const second = await startSupervisor({}, { host: { dataDir } });
  t.teardown(() => second.stop());
  await eventually(() => pidsRunning(['sleep', escaped]).length === 0, {
    what: 'the leftover escapee to be killed by the next host',
  });
  t.deepEqual(pidsRunning(['sleep', stayed]), []);
  await eventually(() => launchCgroupDirs(dataDir).length === 0, {
    what: 'leftover launch cgroups removed',
  });
});
