/**
 * No orphan after any stop or kill (issue: hardening): a stop reaches descendants that left the
 * process group, and a host SIGKILLed right after launching leaves nothing running once the next
 * host on the same data dir has started.
 */
import { readdirSync, readFileSync } from 'node:fs';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { tempDir } from '../../helpers/start-host.js';
import { fixtureBlock, program, serviceStatus, startSupervisor } from '../supervisor/support.js';

/** Live (non-zombie) pids whose command line is exactly `argv`. */
function pidsRunning(argv: readonly string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') !== wanted) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state !== 'Z' && state !== 'X') found.push(Number(name));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

function uniqueSeconds(): string {
  return String(100_000 + Math.floor(Math.random() * 800_000));
}

test('stop reaches a grandchild that called setsid and left the group', async (t) => {
  const escaped = uniqueSeconds();
  const stayed = uniqueSeconds();
  const host = await startSupervisor({
    escaper: {
      enabled: true,
      process_name: 'Escaper',
      command: ['sh', '-c', `setsid sleep ${escaped} & sleep ${stayed} & wait`],
    },
  });
  t.teardown(() => host.stop());
  await eventually(() => pidsRunning(['sleep', escaped]).length === 1, {
    what: 'the setsid grandchild',
  });
  await eventually(() => pidsRunning(['sleep', stayed]).length === 1, { what: 'the grandchild' });
  const stopped = await request(host.url, '/process/stop-service', {
    body: { process_name: 'Escaper' },
  });
  t.is(stopped.status, 200, stopped.text);
  await eventually(() => pidsRunning(['sleep', escaped]).length === 0, {
    what: 'the escaped grandchild to be stopped too',
  });
  t.deepEqual(pidsRunning(['sleep', stayed]), []);
});

test('a host SIGKILLed right after launching leaves no orphan and no duplicate', async (t) => {
  const dataDir = tempDir('stackd-kill-');
  const escaped = uniqueSeconds();
  const services = {
    escaper: {
      enabled: true,
      process_name: 'Escaper',
      command: ['sh', '-c', `setsid sleep ${escaped} & wait`],
    },
    plain: fixtureBlock('Plain', program('long-running'), ['--stderr', 'up']),
  };
  for (let round = 0; round < 3; round += 1) {
    const host = await startSupervisor(services, { host: { dataDir } });
    // Killed as soon as the launch is visible: the window the old debounced record lost.
    await eventually(() => pidsRunning(['sleep', escaped]).length >= 1, { what: 'the launch' });
    await host.stop('SIGKILL');
  }
  const survivor = await startSupervisor(services, { host: { dataDir } });
  t.teardown(() => survivor.stop());
  await eventually(async () => (await serviceStatus(survivor, 'Plain')).status === 'running');
  await eventually(() => pidsRunning(['sleep', escaped]).length === 1, {
    what: 'exactly one escaped sleep: the leftovers reaped, the new one running',
  });
  const plainPid = (await serviceStatus(survivor, 'Plain')).pid;
  const plainCommand = readFileSync(`/proc/${plainPid}/cmdline`, 'utf8').split('\0').slice(0, -1);
  t.deepEqual(pidsRunning(plainCommand), [plainPid], 'one Plain, no duplicate');
  await survivor.stop();
  await eventually(() => pidsRunning(['sleep', escaped]).length === 0, {
    what: 'nothing left after a clean stop',
  });
});
