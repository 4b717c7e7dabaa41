/**
 * Launch cgroups under a v1 layout in temp directories (a mount table naming them stands in for
 * /sys/fs/cgroup): each launch gets its directories; the shared bases are made once and again
 * after something removed them.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { CgroupManager } from '../../../../plugins/supervisor/cgroups/cgroup-manager.js';
import { memoryLogger } from '../support/runner.js';

function manager() {
  const root = mkdtempSync(join(tmpdir(), 'cgroup-manager-'));
  const lines: string[] = [];
  for (const controller of ['freezer', 'pids']) {
    mkdirSync(join(root, controller));
    lines.push(`cgroup ${join(root, controller)} cgroup rw,relatime,${controller} 0 0`);
  }
  writeFileSync(join(root, 'mounts'), `${lines.join('\n')}\n`);
  writeFileSync(join(root, 'cgroup'), '2:freezer:/\n1:pids:/\n');
  const cgroups = new CgroupManager({
    mode: 'auto',
    dataDir: join(root, 'data'),
    logger: memoryLogger(),
    mountsFile: join(root, 'mounts'),
    selfCgroupFile: join(root, 'cgroup'),
  });
  return { root, cgroups };
}

test('every launch gets its directories; removed bases are made again', async (t) => {
  const { root, cgroups } = manager();
  const first = await cgroups.create('web', 'a1');
  const second = await cgroups.create('web', 'a2');
  t.is(first?.dirs.length, 2);
  for (const dir of [...(first?.dirs ?? []), ...(second?.dirs ?? [])]) t.true(existsSync(dir));
  rmSync(join(root, 'freezer', cgroups.dirName), { recursive: true });
  const third = await cgroups.create('web', 'a3');
  t.not(third, null);
  for (const dir of third?.dirs ?? []) t.true(existsSync(dir), `${dir} made after its base went`);
});
