/** The trees of configured processes: the API's own alone, a launched one with its children. */
import { spawn } from 'node:child_process';
import test from 'ava';
import { listProcessEntries } from '../../../../sdk/index.js';
import { scanTrees } from '../../../../plugins/supervisor/supervision/tree-scan.js';
import { eventually } from '../../../helpers/eventually.js';

const document = {
  stackd: { api_service: { process_name: 'stackd API' } },
  shell: { process_name: 'Shell', command: ['sh'] },
  idle: { process_name: 'Idle', command: ['true'] },
};

test("the API's tree is the host alone; a process's tree holds its children; no pid, no tree", async (t) => {
  // `sh` stays the parent of a `sleep` it waits for: a tree of two.
  const child = spawn('sh', ['-c', 'sleep 300 & wait'], { detached: true, stdio: 'ignore' });
  const pid = child.pid ?? Number.NaN;
  t.teardown(() => process.kill(-pid, 'SIGKILL'));
  const entries = listProcessEntries(document);
  const runners = new Map([['Shell', { pid, cgroup: null }]]);
  const trees = await eventually(async () => {
    const scanned = await scanTrees(entries, (name) => runners.get(name));
    return (scanned.get('Shell')?.length ?? 0) >= 2 ? scanned : undefined;
  });
  t.deepEqual(trees.get('stackd API'), [process.pid]);
  const shell = trees.get('Shell') ?? [];
  t.true(shell.includes(pid), 'the root is in its tree');
  t.is(shell.length, 2, `sh and its sleep: ${shell.join(', ')}`);
  t.false(trees.has('Idle'));
});
