import test from 'ava';
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { CgroupManager } from '../../../../plugins/supervisor/cgroups/cgroup-manager.js';
import { wrappedArgv } from '../../../../plugins/supervisor/cgroups/cgroup-wrapper.js';
import {
  killLaunchCgroup,
  removeLaunchCgroup,
  type LaunchCgroup,
} from '../../../../plugins/supervisor/cgroups/launch-cgroup.js';
import { liveTrees, readProcTable } from '../../../../plugins/supervisor/runtime/proc-table.js';
import {
  CgroupFiles,
  cgroupMembersNow,
  processTrees,
} from '../../../../plugins/supervisor/runtime/process-trees.js';
import { eventually } from '../../../helpers/eventually.js';
import { tempDir } from '../../../helpers/start-host.js';
import { memoryLogger } from '../support/runner.js';

/** A sleep duration no other test uses, to find its process by command line. */
const uniqueSeconds = (): string => String(100_000 + Math.floor(Math.random() * 800_000));

function pidOf(argv: readonly string[]): number | undefined {
  const wanted = `${argv.join('\0')}\0`;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') === wanted) return Number(name);
    } catch {
      /* gone meanwhile */
    }
  }
  return undefined;
}

/**
 * `sh` forks a subshell that starts `sleep <escaped>` in a new session and exits at once (the
 * sleep is reparented away from the tree), then execs `sleep <stayed>`: the root.
 */
function escapingTree(escaped: string, stayed: string): string[] {
  return ['sh', '-c', `(setsid sleep ${escaped} &); exec sleep ${stayed}`];
}

function launch(argv: readonly string[]): number {
  const [file = 'sh', ...args] = argv;
  const child = spawn(file, args, { detached: true, stdio: 'ignore' });
  child.unref();
  if (child.pid === undefined) throw new Error('no pid');
  return child.pid;
}

function kill(pids: readonly (number | undefined)[]): void {
  for (const pid of pids)
    if (pid !== undefined)
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
}

async function launchCgroup(): Promise<LaunchCgroup | null> {
  const manager = new CgroupManager({
    mode: 'auto',
    dataDir: tempDir('stackd-trees-'),
    logger: memoryLogger(),
  });
  return manager.create('Trees', Math.random().toString(36).slice(2, 10));
}

const cgroup = await launchCgroup();
const withCgroups = cgroup === null ? test.skip : test;
// Tests that count this process's open files run alone.
const serialWithCgroups = cgroup === null ? test.skip : test.serial;

withCgroups(
  'a launch with a cgroup: its tree is the cgroup, a daemonized child included',
  async (t) => {
    if (cgroup === null) return;
    t.teardown(async () => {
      await killLaunchCgroup(cgroup);
      await removeLaunchCgroup(cgroup);
    });
    const [escaped, stayed] = [uniqueSeconds(), uniqueSeconds()];
    const root = launch(wrappedArgv(cgroup.procsFiles, escapingTree(escaped, stayed)));
    const daemon = await eventually(() => pidOf(['sleep', escaped]), { what: 'the daemon' });
    await eventually(() => pidOf(['sleep', stayed]) === root, { what: 'the root exec' });
    t.deepEqual(
      cgroupMembersNow(cgroup),
      [root, daemon].sort((a, b) => a - b),
    );
    const trees = await processTrees(new Map([['Trees', { pid: root, cgroup }]]));
    t.deepEqual(
      trees.get('Trees'),
      [root, daemon].sort((a, b) => a - b),
    );
    // What the process table alone sees: the daemon left the tree and the process group.
    const table = (await readProcTable()) ?? [];
    t.deepEqual(liveTrees(table, [root]).get(root), [root]);
  },
);

test('a launch without a cgroup: its tree comes from the process table', async (t) => {
  const [escaped, stayed] = [uniqueSeconds(), uniqueSeconds()];
  const root = launch(['sh', '-c', `sleep ${escaped} & exec sleep ${stayed}`]);
  t.teardown(() => kill([root, pidOf(['sleep', escaped])]));
  const child = await eventually(() => pidOf(['sleep', escaped]), { what: 'the child' });
  const trees = await processTrees(new Map([['Plain', { pid: root, cgroup: null }]]));
  t.deepEqual(
    trees.get('Plain'),
    [root, child].sort((a, b) => a - b),
  );
});

withCgroups('a cgroup that is gone: the tree falls back to the process table', async (t) => {
  const gone = await launchCgroup();
  if (gone === null) return;
  await removeLaunchCgroup(gone);
  t.is(cgroupMembersNow(gone), null);
  const stayed = uniqueSeconds();
  const root = launch(['sleep', stayed]);
  t.teardown(() => kill([root]));
  const trees = await processTrees(new Map([['Gone', { pid: root, cgroup: gone }]]));
  t.deepEqual(trees.get('Gone'), [root]);
});

serialWithCgroups(
  'kept cgroup files: a later reading sees a member that joined, unread files are closed',
  async (t) => {
    const kept = await launchCgroup();
    if (kept === null) return;
    t.teardown(async () => {
      await killLaunchCgroup(kept);
      await removeLaunchCgroup(kept);
    });
    const files = new CgroupFiles();
    const openFiles = (): number => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    t.deepEqual(cgroupMembersNow(kept, files), []);
    t.is(openFiles(), before + 1);
    const root = launch(wrappedArgv(kept.procsFiles, ['sleep', uniqueSeconds()]));
    t.teardown(() => kill([root]));
    // Read at once and again and again: cgroup v1 would answer every one of these reads from the
    // list it made for the first, were the file not reopened when read again this soon.
    const members = await eventually(
      () => {
        const now = cgroupMembersNow(kept, files);
        return now?.includes(root) === true ? now : undefined;
      },
      { what: 'the new member through the kept file', intervalMs: 20 },
    );
    t.deepEqual(members, [root]);
    t.is(openFiles(), before + 1, 'one file kept');
    files.closeUnused();
    t.is(openFiles(), before + 1, 'read since the last call: kept');
    files.closeUnused();
    t.is(openFiles(), before, 'not read since: closed');
  },
);

serialWithCgroups('a kept file of a removed cgroup reads as gone and is closed', async (t) => {
  const gone = await launchCgroup();
  if (gone === null) return;
  const files = new CgroupFiles();
  const openFiles = (): number => readdirSync('/proc/self/fd').length;
  const before = openFiles();
  t.deepEqual(cgroupMembersNow(gone, files), []);
  await removeLaunchCgroup(gone);
  t.is(cgroupMembersNow(gone, files), null);
  t.is(openFiles(), before);
  files.close();
});
