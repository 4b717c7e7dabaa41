import test from 'ava';
import { spawn } from 'node:child_process';
import {
  LAUNCH_ENV,
  markedProcesses,
  newLaunchId,
} from '../../../../plugins/supervisor/runtime/launch-marker.js';

function spawnMarked(marker: string, extraEnvBytes = 0) {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH };
  // A large environment crosses the first read buffer (64 KiB): the marker sits after it.
  // (One string may not exceed 128 KiB: spread it over several.)
  for (let index = 0; index * 60_000 < extraEnvBytes; index += 1)
    env[`A_BIG_VALUE_${index}`] = 'x'.repeat(60_000);
  env[LAUNCH_ENV] = marker;
  const child = spawn('sleep', ['30'], { env, stdio: 'ignore' });
  return child;
}

test('concurrent scans each see a process started before they asked, however big its environment', async (t) => {
  const supervisor = newLaunchId();
  const small = spawnMarked(`${supervisor}:one`);
  const big = spawnMarked(`${supervisor}:two`, 200_000);
  const other = spawnMarked(`${newLaunchId()}:three`);
  t.teardown(() => {
    for (const child of [small, big, other]) child.kill('SIGKILL');
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, index) =>
      markedProcesses(index % 2 === 0 ? `${supervisor}:` : `${supervisor}:two`),
    ),
  );
  answers.forEach((pids, index) => {
    if (index % 2 === 0) t.deepEqual([...pids].sort(), [small.pid, big.pid].sort());
    else t.deepEqual(pids, [big.pid]);
  });
  // A process started after a scan began is found by a scan asked for after it started.
  const late = spawnMarked(`${supervisor}:late`);
  t.teardown(() => late.kill('SIGKILL'));
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.deepEqual(await markedProcesses(`${supervisor}:late`), [late.pid]);
});
