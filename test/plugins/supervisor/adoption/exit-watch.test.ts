/** The exit watch of adopted processes: one timer for all, a whole check on demand. */
import { spawn } from 'node:child_process';
import test from 'ava';
import { ExitWatch } from '../../../../plugins/supervisor/adoption/exit-watch.js';
import { procReader, type ProcReader } from '../../../../plugins/supervisor/adoption/verify.js';
import { readProcess } from '../../../../plugins/supervisor/runtime/proc-table.js';
import { eventually } from '../../../helpers/eventually.js';

test('a process that exits is reported once; one still running is not; the timer goes with the last', async (t) => {
  const watch = new ExitWatch(50);
  const short = spawn('sleep', ['0.3'], { stdio: 'ignore' });
  const long = spawn('sleep', ['30'], { stdio: 'ignore' });
  t.teardown(() => long.kill('SIGKILL'));
  const ticksOf = (pid: number): Promise<string> =>
    eventually(() => readProcess(pid)?.startTicks, { what: `${pid} in /proc` });
  const exits: string[] = [];
  watch.watch(short.pid as number, await ticksOf(short.pid as number), procReader, () =>
    exits.push('short'),
  );
  watch.watch(long.pid as number, await ticksOf(long.pid as number), procReader, () =>
    exits.push('long'),
  );
  t.is(watch.size, 2);
  await eventually(() => (exits.length > 0 ? true : undefined), { what: 'the short exit' });
  t.deepEqual(exits, ['short']);
  t.is(watch.size, 1);
  long.kill('SIGKILL');
  await eventually(() => (exits.length > 1 ? true : undefined), { what: 'the long exit' });
  t.deepEqual(exits, ['short', 'long'], 'each once');
  t.is(watch.size, 0);
});

test('a pid that now runs another program (start time differs) is gone for a whole check, at once', (t) => {
  // This test process stands in for the reused pid: it exists, so the cheap check passes.
  const reused: ProcReader = {
    stat: (pid) => {
      const row = readProcess(pid);
      return row === undefined ? undefined : { ...row, startTicks: `${row.startTicks}0` };
    },
    marker: () => undefined,
  };
  const watch = new ExitWatch(60_000);
  let exited = 0;
  const checkNow = watch.watch(process.pid, 'recorded', reused, () => (exited += 1));
  t.is(exited, 0, 'nothing before a check');
  checkNow();
  t.is(exited, 1);
  checkNow();
  t.is(exited, 1, 'reported once');
  t.is(watch.size, 0);
});
