/**
 * Kernel enforcement under cgroup v1 on this machine: cpu_max 0.5 holds a CPU burner to half a
 * core (measured from the cgroup's cpuacct.usage over 10 s), a POST /config of cpu_max reaches
 * the running cgroup without a restart, and pids_max stops a bounded fork bomb.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { tempDir } from '../../helpers/start-host.js';
import { fixtureBlock, program, serviceStatus, startSupervisor } from '../supervisor/support.js';
import { launchCgroupDirs, pidsRunning, uniqueSeconds } from './support.js';

function launchDir(dataDir: string, controller: string): string {
  const dir = launchCgroupDirs(dataDir).find((candidate) =>
    candidate.startsWith(join('/sys/fs/cgroup', controller)),
  );
  if (dir === undefined) throw new Error(`no ${controller} cgroup for the launch`);
  return dir;
}

const read = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8').trim();

test('cpu_max 0.5 holds a CPU burner to half a core; a live cpu_max change applies', async (t) => {
  const dataDir = tempDir('stackd-cg-cpu-');
  const host = await startSupervisor(
    { burner: fixtureBlock('Burner', program('burns-cpu'), [], { cpu_max: 0.5 }) },
    { host: { dataDir } },
  );
  t.teardown(() => host.stop());
  await eventually(async () => (await serviceStatus(host, 'Burner')).status === 'running');
  const cpuacct = launchDir(dataDir, 'cpuacct');
  const start = Number(read(cpuacct, 'cpuacct.usage'));
  const startedAt = process.hrtime.bigint();
  await sleep(10_000);
  const usedNs = Number(read(cpuacct, 'cpuacct.usage')) - start;
  const wallNs = Number(process.hrtime.bigint() - startedAt);
  const share = usedNs / wallNs;
  t.log(`CPU share over ${(wallNs / 1e9).toFixed(1)} s: ${(share * 100).toFixed(1)} % of one core`);
  t.true(share <= 0.55, `used ${share}`);
  t.true(share >= 0.2, `the burner ran (${share})`);

  const cpu = launchDir(dataDir, 'cpu');
  t.is(read(cpu, 'cpu.cfs_quota_us'), '50000');
  const pid = (await serviceStatus(host, 'Burner')).pid;
  const changed = await request(host.url, '/config', {
    body: { process_name: 'Burner', updates: { cpu_max: 0.25 } },
  });
  t.is(changed.status, 200, changed.text);
  await eventually(() => read(cpu, 'cpu.cfs_quota_us') === '25000', {
    what: 'the new quota in the live cgroup',
  });
  t.is((await serviceStatus(host, 'Burner')).pid, pid, 'no restart');
});

test('pids_max stops a bounded fork bomb inside its own cgroup', async (t) => {
  const dataDir = tempDir('stackd-cg-pids-');
  const seconds = uniqueSeconds();
  // bash, not sh: dash exits on its first refused fork, bash reports it and goes on forking.
  const bomb = `i=0; while [ $i -lt 100 ]; do sleep ${seconds} & i=$((i+1)); done; exec sleep ${seconds}0`;
  const host = await startSupervisor(
    { bomb: { enabled: true, process_name: 'Bomb', command: ['bash', '-c', bomb], pids_max: 10 } },
    { host: { dataDir } },
  );
  t.teardown(() => host.stop());
  let last: unknown;
  await eventually(async () => {
    last = await serviceStatus(host, 'Bomb');
    return (last as { status: string }).status === 'running';
  }).catch((error: unknown) => {
    t.log('last status', last);
    throw error;
  });
  const pids = launchDir(dataDir, 'pids');
  t.is(read(pids, 'pids.max'), '10');
  t.true(Number(read(pids, 'pids.current')) <= 10);
  t.true(pidsRunning(['sleep', seconds]).length < 10, 'forks beyond the limit failed');
  t.regex(read(pids, 'pids.events'), /^max [1-9]\d*$/m, 'the kernel refused forks');
});
