/**
 * Limits written into a launch's cgroup (v1 layout, temp directories standing in for the
 * hierarchies): a fresh cgroup gets only the limits that are set; a live one also has removed
 * limits lifted.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { launchCgroupOf } from '../../../../plugins/supervisor/cgroups/launch-cgroup.js';
import { applyLimits } from '../../../../plugins/supervisor/limits/cgroup-limits.js';
import type { LimitSpec } from '../../../../plugins/supervisor/limits/limit-fields.js';

const NO_LIMITS: LimitSpec = {
  memoryMax: null,
  memoryHigh: null,
  cpuMax: null,
  pidsMax: null,
  onLimit: 'restart',
};

function v1Cgroup() {
  const root = mkdtempSync(join(tmpdir(), 'cgroup-limits-'));
  const bases = { memory: join(root, 'memory'), cpu: join(root, 'cpu'), pids: join(root, 'pids') };
  const cgroup = launchCgroupOf({ kind: 'v1', bases }, 'web-1');
  if (cgroup === null) throw new Error('no cgroup');
  for (const dir of cgroup.dirs) mkdirSync(dir, { recursive: true });
  return cgroup;
}

test('a fresh cgroup without limits is left as the kernel made it', async (t) => {
  const cgroup = v1Cgroup();
  const enforcement = await applyLimits(cgroup, NO_LIMITS, 'watch', true);
  t.deepEqual(enforcement, { memory_max: null, memory_high: null, cpu_max: null, pids_max: null });
  for (const dir of cgroup.dirs) t.deepEqual(readdirSync(dir), [], `nothing written in ${dir}`);
});

test('a fresh cgroup gets the limits that are set', async (t) => {
  const cgroup = v1Cgroup();
  const limits = { ...NO_LIMITS, memoryMax: 64 * 1024 * 1024, pidsMax: 20 };
  const enforcement = await applyLimits(cgroup, limits, 'watch', true);
  const memory = cgroup.dirOf('memory') ?? '';
  t.is(readFileSync(join(memory, 'memory.limit_in_bytes'), 'utf8'), String(64 * 1024 * 1024));
  t.false(existsSync(join(memory, 'memory.soft_limit_in_bytes')), 'no high limit: not written');
  t.is(readFileSync(join(cgroup.dirOf('pids') ?? '', 'pids.max'), 'utf8'), '20');
  t.deepEqual(readdirSync(cgroup.dirOf('cpu') ?? ''), []);
  t.is(enforcement.memory_max, 'cgroup v1 memory');
  t.is(enforcement.pids_max, 'cgroup v1 pids');
});

test('a live cgroup has limits removed at run time lifted', async (t) => {
  const cgroup = v1Cgroup();
  await applyLimits(cgroup, NO_LIMITS);
  t.is(readFileSync(join(cgroup.dirOf('memory') ?? '', 'memory.limit_in_bytes'), 'utf8'), '-1');
  t.is(readFileSync(join(cgroup.dirOf('pids') ?? '', 'pids.max'), 'utf8'), 'max');
  t.is(readFileSync(join(cgroup.dirOf('cpu') ?? '', 'cpu.cfs_quota_us'), 'utf8'), '-1');
});
