import test from 'ava';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { ProcUsageReader } from '../../../../plugins/supervisor/runtime/proc-usage.js';
import { readTrees, TreeReadings } from '../../../../plugins/supervisor/metrics/tree-usage.js';
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

test('a tree reading sums CPU, memory and descriptors per process, descriptors only when asked', async (t) => {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  t.teardown(() => child.kill('SIGKILL'));
  const pid = child.pid ?? 0;
  const trees = new Map([['both', [process.pid, pid]]]);
  const states = [state('both', process.pid), state('idle', null)];
  const reader = new ProcUsageReader();
  t.teardown(() => reader.close());
  const counted = await readTrees(states, trees, reader, true);
  const both = counted?.reading.usage.get('both');
  t.true((both?.rss ?? 0) > process.memoryUsage.rss() * 0.8);
  t.true((both?.cpuSeconds ?? 0) > 0);
  const ownFds = readdirSync('/proc/self/fd').length;
  t.true((both?.fds ?? 0) >= ownFds - 2, `${both?.fds} descriptors, the host alone has ${ownFds}`);
  t.deepEqual(counted?.reading.usage.get('idle'), { cpuSeconds: 0, rss: 0, fds: 0 });
  t.is(counted?.reading.trees, trees);
  t.true(counted?.perPid.has(pid));
  const uncounted = await readTrees(states, trees, reader, false);
  t.is(uncounted?.reading.usage.get('both')?.fds, null);
});

test('a scrape takes the latest reading only when it is recent, for the same trees, with descriptors', (t) => {
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
  readings.publish({
    at: Date.now() + 1,
    trees,
    usage: new Map([['a', { cpuSeconds: 1, rss: 2, fds: null }]]),
  });
  t.is(readings.recent(trees, 10_000), undefined, 'a reading without descriptors does not serve');
  readings.publish({ at: Date.now() - 10_001 + 2, trees, usage });
  t.is(readings.recent(trees, 10_000), undefined);
});

test('a reading made without descriptors ends what an older reading served, as if it were kept', (t) => {
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
