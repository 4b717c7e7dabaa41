/**
 * Launch cgroups under a v1 layout in temp directories (a mount table naming them stands in for
 * /sys/fs/cgroup): each launch gets its directories; the shared bases are made once and again
 * after something removed them. An adopted launch's cgroup comes from its launch record when the
 * record names one, else from the detected layout.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { CgroupManager } from '../../../../plugins/supervisor/cgroups/cgroup-manager.js';
import type { RecordedCgroup } from '../../../../plugins/supervisor/cgroups/launch-cgroup.js';
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

test('an adopted launch takes the cgroup its record names without waiting for detection', async (t) => {
  const { root } = manager();
  // A mount table nobody writes: reading it blocks, so detection cannot finish until the end.
  const mounts = join(root, 'mounts-fifo');
  execFileSync('mkfifo', [mounts]);
  const cgroups = new CgroupManager({
    mode: 'auto',
    dataDir: join(root, 'data'),
    logger: memoryLogger(),
    mountsFile: mounts,
    selfCgroupFile: join(root, 'cgroup'),
  });
  const detected = cgroups.detect();
  const dirs = {
    freezer: join(root, 'freezer', 'x', 'web-a1'),
    pids: join(root, 'pids', 'x', 'web-a1'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const adopted = await Promise.race([
    cgroups.existing('web', 'a1', { kind: 'v1', dirs }),
    sleep(10_000).then(() => 'waited for detection'),
  ]);
  t.not(adopted, 'waited for detection');
  t.deepEqual(typeof adopted === 'object' ? adopted?.dirs : undefined, Object.values(dirs));
  t.is(await cgroups.existing('web', 'a2', null), null, 'launched without a cgroup: none');
  // A recorded cgroup whose directories are gone is none either.
  t.is(await cgroups.existing('web', 'a3', { kind: 'v2', dir: join(root, 'gone') }), null);
  writeFileSync(mounts, '');
  await detected;
});

test('a record of an older host (no cgroup named) finds the cgroup through detection', async (t) => {
  const { root, cgroups } = manager();
  const made = await cgroups.create('web', 'a1');
  const dirs = made?.dirs ?? [];
  t.is(dirs.length, 2);
  const found = await cgroups.existing('web', 'a1');
  t.deepEqual(found?.dirs, dirs);
  // A malformed record is treated as naming none.
  const malformed = { kind: 'v1', dirs: { freezer: 7 } } as unknown as RecordedCgroup;
  t.deepEqual((await cgroups.existing('web', 'a1', malformed))?.dirs, dirs);
  t.true(dirs.every((dir) => dir.startsWith(root)));
});
