/** The directories a cgroup layout gives stackd's cgroups, one per hierarchy. */
import test from 'ava';
import { layoutBases } from '../../../../plugins/supervisor/cgroups/cgroup-detect.js';

test('v1: controllers mounted together share one directory, listed once', (t) => {
  const bases = layoutBases({
    kind: 'v1',
    bases: {
      cpu: '/sys/fs/cgroup/cpu,cpuacct/stackd',
      cpuacct: '/sys/fs/cgroup/cpu,cpuacct/stackd',
      memory: '/sys/fs/cgroup/memory/stackd',
    },
  });
  t.deepEqual(bases.sort(), ['/sys/fs/cgroup/cpu,cpuacct/stackd', '/sys/fs/cgroup/memory/stackd']);
});

test('v2: the one unified directory; none: no directory', (t) => {
  t.deepEqual(layoutBases({ kind: 'v2', base: '/sys/fs/cgroup/stackd', controllers: ['pids'] }), [
    '/sys/fs/cgroup/stackd',
  ]);
  t.deepEqual(layoutBases({ kind: 'none', why: 'no cgroup filesystem' }), []);
});
