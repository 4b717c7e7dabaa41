import test from 'ava';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { ProcUsageReader } from '../../../../plugins/supervisor/runtime/proc-usage.js';
import {
  readPids,
  readTrees,
  TreeReadings,
} from '../../../../plugins/supervisor/metrics/tree-usage.js';
import type { ProcessState } from '../../../../sdk/index.js';

const state = (process_name: string, pid: number | null): ProcessState => ({
  process_name,
  status: pid === null ? 'stopped' : 'running',
  pid,
  exit_code: null,
  restarts: 0,
  started_at: pid === null ? null : Date.now(),
  reason: null,
});

test('a tree reading sums CPU, memory and descriptors per process', async (t) => {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  t.teardown(() => child.kill('SIGKILL'));
  const pid = child.pid ?? 0;
  const trees = new Map([['both', [process.pid, pid]]]);
  const states = [state('both', process.pid), state('idle', null)];
  const reader = new ProcUsageReader();
  t.teardown(() => reader.close());
  const counted = await readTrees(states, trees, reader);
  const both = counted?.usage.get('both');
  t.true((both?.rss ?? 0) > process.memoryUsage.rss() * 0.8);
  t.true((both?.cpuSeconds ?? 0) > 0);
  const ownFds = readdirSync('/proc/self/fd').length;
  t.true((both?.fds ?? 0) >= ownFds - 2, `${both?.fds} descriptors, the host alone has ${ownFds}`);
  t.deepEqual(counted?.usage.get('idle'), { cpuSeconds: 0, rss: 0, fds: 0 });
  t.is(counted?.trees, trees);
  const pids = await readPids(states, trees, reader);
  t.true(pids?.perPid.has(pid));
  t.deepEqual(pids?.byState, [[process.pid, pid], []]);
});

test('a scrape takes the latest reading only when it is recent and for the same trees', (t) => {
  const readings = new TreeReadings();
  const trees = new Map([['a', [1]]]);
  const usage = new Map([['a', { cpuSeconds: 1, rss: 2, fds: 3 }]]);
  t.false(readings.wantsDescriptors(), 'nobody scraped yet');
  t.is(readings.recent(trees, 10_000), undefined, 'nothing read yet');
  t.true(readings.wantsDescriptors(), 'a scrape asked');
  readings.publish({ at: Date.now(), trees, usage });
  t.is(readings.recent(trees, 10_000)?.usage, usage);
  t.is(readings.recent(new Map(trees), 10_000), undefined, 'other trees: a process started since');
  readings.publish({ at: Date.now() - 20_000, trees, usage: new Map() });
  t.is(
    readings.recent(trees, 10_000)?.usage,
    usage,
    'an older reading does not replace a newer one',
  );
  readings.passed(Date.now() + 1);
  t.is(readings.recent(trees, 10_000), undefined, 'a newer pass made no sums: nothing serves');
  readings.publish({ at: Date.now() - 10_001 + 2, trees, usage });
  t.is(readings.recent(trees, 10_000), undefined);
});

test('a pass over /proc without sums ends what an older reading served', (t) => {
  const readings = new TreeReadings();
  const trees = new Map([['a', [1]]]);
  const usage = new Map([['a', { cpuSeconds: 1, rss: 2, fds: 3 }]]);
  const at = Date.now();
  readings.publish({ at: at - 2, trees, usage });
  t.is(readings.recent(trees, 10_000)?.usage, usage);
  readings.passed(at - 3);
  t.is(readings.recent(trees, 10_000)?.usage, usage, 'an older one passing changes nothing');
  readings.passed(at);
  t.is(readings.recent(trees, 10_000), undefined);
  readings.publish({ at: at - 1, trees, usage });
  t.is(readings.recent(trees, 10_000), undefined, 'nor does a reading older than it serve');
  readings.publish({ at: at + 1, trees, usage });
  t.is(readings.recent(trees, 10_000)?.usage, usage);
});
