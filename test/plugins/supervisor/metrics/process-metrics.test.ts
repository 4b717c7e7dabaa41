import test from 'ava';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pidusage from 'pidusage';
import {
  collectProcessMetrics,
  createProcessMetricsCollector,
  type MetricsSource,
} from '../../../../plugins/supervisor/metrics/process-metrics.js';
import {
  liveTrees,
  readProcTable,
  type ProcInfo,
} from '../../../../plugins/supervisor/runtime/proc-table.js';
import type { ProcessState } from '../../../../sdk/index.js';
import { ProcUsageReader } from '../../../../plugins/supervisor/runtime/proc-usage.js';
import { eventually } from '../../../helpers/eventually.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'busy-tree.js');

/** Start the fixture tree; resolves once all three processes said they are ready. */
async function startTree(): Promise<{
  parent: number;
  child: number;
  grandchild: number;
  kill: () => void;
  exited: Promise<unknown>;
}> {
  const proc = spawn(process.execPath, [FIXTURE], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  proc.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const pidOf = (role: string) => Number(new RegExp(`ready ${role} (\\d+)`).exec(output)?.[1]);
  await eventually(() => ['parent', 'child', 'grandchild'].every((role) => pidOf(role) > 0), {
    what: 'the fixture tree to start',
  });
  return {
    parent: pidOf('parent'),
    child: pidOf('child'),
    grandchild: pidOf('grandchild'),
    exited,
    kill: () => {
      for (const role of ['grandchild', 'child', 'parent']) {
        try {
          process.kill(pidOf(role), 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    },
  };
}

/** The smallest ProcessSupervisor that the collector needs, backed by the real tree. */
function supervisorOf(states: ProcessState[]): MetricsSource {
  return {
    states: () => states,
    pidTrees: async () => {
      const table = (await readProcTable()) ?? [];
      const trees = new Map<string, number[]>();
      for (const state of states)
        if (state.pid !== null) trees.set(state.process_name, await treeOf(state.pid, table));
      return trees;
    },
  };
}

/** The live tree of `pid` in `table`, or in a fresh one. */
async function treeOf(pid: number, table?: readonly ProcInfo[]): Promise<number[]> {
  return liveTrees(table ?? (await readProcTable()) ?? [], [pid]).get(pid) ?? [];
}

test('a tree holds the root, its child and its grandchild', async (t) => {
  const tree = await startTree();
  t.teardown(tree.kill);
  const sorted = (pids: number[]): number[] => [...pids].sort((a, b) => a - b);
  t.deepEqual(await treeOf(tree.parent), sorted([tree.parent, tree.child, tree.grandchild]));
  t.deepEqual(await treeOf(tree.grandchild), [tree.grandchild]);
});

test('an orphan re-parented after its parent died leaves the tree', async (t) => {
  const tree = await startTree();
  t.teardown(tree.kill);
  process.kill(tree.child, 'SIGKILL'); // the grandchild is orphaned, not killed
  await eventually(async () => (await treeOf(tree.parent)).length === 1, {
    what: 'the tree to shrink to its root',
  });
  t.true(
    (await readProcTable())?.some((row) => row.pid === tree.grandchild && row.state !== 'Z') ??
      false,
    'the grandchild lives on',
  );
});

test('the process sample sums the whole tree, and the tree outweighs the parent alone', async (t) => {
  const tree = await startTree();
  t.teardown(tree.kill);
  const startedAt = Date.now() - 5000;
  const supervisor = supervisorOf([
    {
      process_name: 'Tree',
      status: 'running',
      pid: tree.parent,
      exit_code: null,
      restarts: 2,
      started_at: startedAt,
      reason: null,
    },
    {
      process_name: 'Idle',
      status: 'stopped',
      pid: null,
      exit_code: 0,
      restarts: 0,
      started_at: null,
      reason: null,
    },
  ]);
  const collector = createProcessMetricsCollector(supervisor, { intervalMs: 1000 });
  t.is(collector.name, 'processes');
  t.is(collector.intervalMs, 1000);
  // pidusage measures CPU since its previous reading of a pid: the first reading is 0.
  const reader = new ProcUsageReader();
  t.teardown(() => reader.close());
  await collectProcessMetrics(supervisor, reader);
  const sample = await eventually(
    async () => {
      const next = await collectProcessMetrics(supervisor, reader);
      return (next.Tree?.cpu_percent ?? 0) > 0 ? next : undefined;
    },
    { what: 'a CPU reading for the tree', intervalMs: 200 },
  );
  const entry = sample.Tree;
  const parentAlone = await pidusage(tree.parent);
  t.is(entry?.pid_count, 3);
  t.is(entry?.pid, tree.parent);
  t.is(entry?.restarts, 2);
  t.true((entry?.uptime_sec ?? 0) >= 5);
  t.true((entry?.rss_bytes ?? 0) > parentAlone.memory + 60 * 1024 * 1024, 'the child holds 64 MiB');
  t.true((entry?.cpu_percent ?? 0) > parentAlone.cpu, 'the busy child is counted');
  t.deepEqual(sample.Idle, {
    process_name: 'Idle',
    status: 'stopped',
    pid: null,
    pid_count: 0,
    cpu_percent: 0,
    rss_bytes: 0,
    uptime_sec: null,
    restarts: 0,
  });
});

test('a process that exited since its state was read is simply counted as empty', async (t) => {
  const tree = await startTree();
  tree.kill();
  await tree.exited; // the parent is our child: reaped, so its pid is gone from /proc
  const sample = await collectProcessMetrics(
    supervisorOf([
      {
        process_name: 'Gone',
        status: 'running',
        pid: tree.parent,
        exit_code: null,
        restarts: 0,
        started_at: Date.now(),
        reason: null,
      },
    ]),
    new ProcUsageReader(),
  );
  t.is(sample.Gone?.pid_count, 0);
  t.is(sample.Gone?.rss_bytes, 0);
});
