import test from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { ProcUsageReader } from '../../../../plugins/supervisor/runtime/proc-usage.js';
import { eventually } from '../../../helpers/eventually.js';

test('the host reads its own resident memory, and 0 % CPU on first sight', (t) => {
  const reader = new ProcUsageReader();
  const usage = reader.read([process.pid])?.get(process.pid);
  const rss = process.memoryUsage.rss();
  t.is(usage?.cpu, 0);
  t.true((usage?.memory ?? 0) > rss * 0.8 && (usage?.memory ?? 0) < rss * 1.2, `${usage?.memory}`);
  t.is((usage?.memory ?? 1) % 4096, 0);
});

test('a busy child reads near one core, an idle one near nothing, a gone pid not at all', async (t) => {
  const busy = spawn(process.execPath, ['-e', 'for (;;) {}']);
  const idle = spawn('sleep', ['600']);
  t.teardown(() => {
    busy.kill('SIGKILL');
    idle.kill('SIGKILL');
  });
  const gone = spawn(process.execPath, ['-e', '']);
  await once(gone, 'exit');
  const pids = [busy.pid ?? 0, idle.pid ?? 0, gone.pid ?? 0];
  const reader = new ProcUsageReader();
  reader.read(pids);
  const usage = await eventually(
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const next = reader.read(pids);
      return (next?.get(busy.pid ?? 0)?.cpu ?? 0) > 50 ? next : undefined;
    },
    { what: 'the busy child near one core' },
  );
  t.true((usage?.get(busy.pid ?? 0)?.cpu ?? 0) <= 110);
  t.true((usage?.get(idle.pid ?? 0)?.cpu ?? 100) < 20);
  t.false(usage?.has(gone.pid ?? 0));
  reader.close();
});

test('kept files follow the pids asked for and are closed when their process is gone', async (t) => {
  // No pipes: only the reader's own files change the count.
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  t.teardown(() => child.kill('SIGKILL'));
  const pid = child.pid ?? 0;
  const reader = new ProcUsageReader();
  const openFiles = (): number => readdirSync('/proc/self/fd').length;
  const before = openFiles();
  reader.read([pid, process.pid]);
  t.is(openFiles(), before + 2);
  reader.read([pid, process.pid]);
  t.is(openFiles(), before + 2, 'the second reading reuses both');
  child.kill('SIGKILL');
  await once(child, 'exit');
  t.false(reader.read([pid, process.pid])?.has(pid));
  t.is(openFiles(), before + 1, "the gone process's file is closed");
  reader.read([]);
  t.is(openFiles(), before);
  reader.close();
});

test.serial(
  'a reading in turns reads every pid, keeps their files across slices and closes the rest',
  async (t) => {
    const children = Array.from({ length: 5 }, () => spawn('sleep', ['600'], { stdio: 'ignore' }));
    t.teardown(() => children.forEach((child) => child.kill('SIGKILL')));
    const pids = children.map((child) => child.pid ?? 0);
    const reader = new ProcUsageReader();
    const openFiles = (): number => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    // Two calls at once run one after the other, each in turns of no time at all.
    const [first, second] = await Promise.all([
      reader.readInTurns(pids, 0),
      reader.readInTurns(pids, 0),
    ]);
    for (const pid of pids) {
      t.true((first?.get(pid)?.memory ?? 0) > 0, `pid ${pid} read`);
      t.true((second?.get(pid)?.memory ?? 0) > 0);
    }
    t.is(openFiles(), before + pids.length, 'one kept file per pid, none opened twice');
    t.deepEqual(
      [...((await reader.readInTurns(pids.slice(0, 2), 0)) ?? new Map()).keys()],
      pids.slice(0, 2),
    );
    t.is(openFiles(), before + 2, 'the files of pids no longer asked for are closed');
    reader.close();
    t.is(openFiles(), before);
  },
);
