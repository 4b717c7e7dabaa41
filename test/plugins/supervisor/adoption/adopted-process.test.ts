/** An adopted process's exit: seen through /proc, its status reported as unknown, not as 0. */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { adoptedProcess } from '../../../../plugins/supervisor/adoption/adopted-process.js';
import type { RecordedGroup } from '../../../../plugins/supervisor/runtime/launch-records.js';
import { exitText } from '../../../../plugins/supervisor/runtime/launch.js';
import { readProcess } from '../../../../plugins/supervisor/runtime/proc-table.js';
import { eventually } from '../../../helpers/eventually.js';

test('an adopted process that exits 3 is reported with an unknown status, not exit code 0', async (t) => {
  // Exits 3 after a moment: a status a parent would see as 3, and a fake 0 would hide.
  const child = spawn('sh', ['-c', 'sleep 1; exit 3'], { detached: true, stdio: 'ignore' });
  const pid = child.pid as number;
  const parentSaw = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const startTicks = await eventually(() => readProcess(pid)?.startTicks, {
    what: 'the child in /proc',
  });
  const group: RecordedGroup = {
    process_name: 'Three',
    pid,
    start_ticks: startTicks,
    marker: 'test:adopted',
    adoption: { started_at: Date.now() - 5_000, restarts: 2, fingerprint: '', fifos: false },
  };
  // The exit watch does not hold the event loop open (a host's server does): this stands in.
  const keepAlive = setInterval(() => undefined, 1_000);
  t.teardown(() => clearInterval(keepAlive));
  const adopted = adoptedProcess(group, mkdtempSync(join(tmpdir(), 'adopted-')), null);
  t.is(adopted.pid, pid);
  t.is(adopted.startedAt, group.adoption?.started_at ?? -1, 'uptime continues from the launch');
  t.false(adopted.hasExited());
  const info = await adopted.exited;
  t.is(await parentSaw, 3, 'the real status, which only the parent could read');
  t.is(info.exitCode, null, 'unknown, not 0');
  t.is(info.signal, null);
  t.true(adopted.hasExited());
  t.regex(exitText(info), /exit status unknown: adopted/);
  t.is(exitText({ exitCode: 3, signal: null, at: 0 }), 'exit code 3');
  t.is(exitText({ exitCode: 137, signal: 'SIGKILL', at: 0 }), 'signal SIGKILL');
});
