/**
 * A host SIGTERM always ends with every group stopped, and stop timeouts that cannot work
 * together are refused at boot, naming the field.
 */
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import {
  fixtureBlock,
  isAlive,
  program,
  serviceStatus,
  startSupervisor,
} from '../supervisor/support.js';

test('a shutdown budget that does not fit the host stop budget stops the boot, naming both', async (t) => {
  const error = await t.throwsAsync(
    startSupervisor(
      { idle: fixtureBlock('Idle', program('long-running')) },
      { sections: { lifecycle: { stop_timeout_ms: 5_000 } } },
    ),
  );
  t.regex(
    error.message,
    /STACKD_CONFIG_INVALID: .*stackd\.supervisor\.shutdown_budget_sec.*stackd\.lifecycle\.stop_timeout_ms \(5000 ms\)/,
  );
});

test('host SIGTERM kills a TERM-ignoring group once the budget runs out, before exiting', async (t) => {
  const host = await startSupervisor(
    {
      stubborn: fixtureBlock('Stubborn', program('ignores-sigterm'), [], { stop_timeout: 60 }),
    },
    {
      supervisor: { shutdown_budget_sec: 1 },
      sections: { lifecycle: { stop_timeout_ms: 3_500 } },
    },
  );
  const pid = await eventually(async () => (await serviceStatus(host, 'Stubborn')).pid, {
    what: 'Stubborn running',
  });
  const code = await host.stop('SIGTERM');
  t.is(code, 0);
  t.false(isAlive(pid), 'the group was killed before the host exited');
});
