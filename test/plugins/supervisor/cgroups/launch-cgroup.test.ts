/**
 * What a launch record keeps of a launch's cgroup, and the cgroup read back from it: the same
 * directories, procs files and controller directories, for v1 (co-mounted controllers sharing a
 * directory) and v2; a malformed record field is recognised as such.
 */
import test from 'ava';
import {
  cgroupFromRecord,
  isRecordedCgroup,
  launchCgroupOf,
  recordedCgroup,
} from '../../../../plugins/supervisor/cgroups/launch-cgroup.js';

test('a v1 cgroup read back from its record is the same cgroup', (t) => {
  const layout = {
    kind: 'v1' as const,
    bases: { freezer: '/cg/freezer/s', cpu: '/cg/cpu,cpuacct/s', cpuacct: '/cg/cpu,cpuacct/s' },
  };
  const original = launchCgroupOf(layout, 'web-a1');
  if (original === null) return t.fail('no cgroup');
  const recorded = JSON.parse(JSON.stringify(recordedCgroup(original))) as unknown;
  t.true(isRecordedCgroup(recorded));
  const back = cgroupFromRecord(recorded as Parameters<typeof cgroupFromRecord>[0]);
  t.deepEqual(back.dirs, ['/cg/freezer/s/web-a1', '/cg/cpu,cpuacct/s/web-a1']);
  t.deepEqual(back.procsFiles, original.procsFiles);
  for (const controller of ['freezer', 'cpu', 'cpuacct', 'memory'])
    t.is(back.dirOf(controller), original.dirOf(controller), controller);
  return undefined;
});

test('a v2 cgroup read back from its record is the same cgroup', (t) => {
  const original = launchCgroupOf({ kind: 'v2', base: '/cg/s', controllers: ['pids'] }, 'web-a1');
  if (original === null) return t.fail('no cgroup');
  const back = cgroupFromRecord(recordedCgroup(original));
  t.is(back.kind, 'v2');
  t.deepEqual(back.dirs, ['/cg/s/web-a1']);
  t.is(back.dirOf('memory'), '/cg/s/web-a1');
  return undefined;
});

test('malformed record fields are not taken for a cgroup', (t) => {
  for (const value of [
    undefined,
    null,
    'v1',
    { kind: 'v2' },
    { kind: 'v2', dir: '' },
    { kind: 'v1', dirs: {} },
    { kind: 'v1', dirs: { freezer: 3 } },
    { kind: 'v3', dir: '/x' },
  ])
    t.false(isRecordedCgroup(value), JSON.stringify(value));
});
