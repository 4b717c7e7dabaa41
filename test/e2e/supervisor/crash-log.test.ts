/**
 * The host log tells each process's story: every launch with its pid, every crash with what
 * followed it, the give-up, and requested stops and restarts; startup-status stops saying
 * `ready` once a process was left crashed.
 */
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { fixtureBlock, program, serviceStatus, startSupervisor } from './support.js';

test('a crash loop is logged crash by crash, up to the give-up; startup-status turns degraded', async (t) => {
  const host = await startSupervisor({
    loop: fixtureBlock(
      'Loop',
      program('crashes'),
      // Up for 1.5 s: past the start check even when CI load delays it.
      ['--after', '1500'],
      { restart_policy: { base_sec: 0.2, factor: 1, max_restarts: 2, window_seconds: 120 } },
    ),
    steady: fixtureBlock('Steady', program('long-running')),
  });
  t.teardown(() => host.stop());
  await eventually(
    async () => {
      const body = await serviceStatus(host, 'Loop');
      return body.status === 'crashed' && body.restarts === 2 ? body : undefined;
    },
    { what: 'Loop gave up', timeoutMs: 30_000 },
  );
  const lines = () => host.output().split('\n');
  const crashes = await eventually(
    () => {
      const found = lines().filter((line) => /Loop exited unexpectedly/.test(line));
      return found.length === 3 ? found : undefined;
    },
    { what: 'three crash lines' },
  );
  t.regex(
    crashes[0] ?? '',
    /WARN .*Loop exited unexpectedly \(exit code 1\) \(pid \d+\); restart 1 in 0.2 s/,
  );
  t.regex(crashes[1] ?? '', /WARN .*\(pid \d+\); restart 2 in 0.2 s/);
  t.regex(
    crashes[2] ?? '',
    /ERROR .*Loop exited unexpectedly \(exit code 1\) \(pid \d+\); gave up after 2 restarts within 120 s; left crashed/,
  );
  const crashPids = crashes.map((line) => /\(pid (\d+)\)/.exec(line)?.[1]);
  t.is(new Set(crashPids).size, 3, 'each crash names its own pid');
  const launches = lines().filter((line) => /INFO .*Loop: running \(pid \d+/.test(line));
  t.is(launches.length, 3);
  t.is(launches.filter((line) => line.includes('after an automatic restart')).length, 2);
  for (const pid of crashPids)
    t.true(
      launches.some((line) => line.includes(`(pid ${pid}`)),
      `the launch of ${pid} is logged`,
    );

  const startup = (await request(host.url, '/process/startup-status')).body;
  t.is(startup.phase, 'degraded');
  t.true(startup.terminal);
  t.regex(startup.failures.Loop ?? '', /gave up after 2 restarts/);
  t.is(startup.services.Loop.state, 'failed');
  t.false('Steady' in startup.failures);
});

test('requested restarts and stops are logged with the pid and the reason', async (t) => {
  const host = await startSupervisor({ steady: fixtureBlock('Steady', program('long-running')) });
  t.teardown(() => host.stop());
  const first = await eventually(
    async () => {
      const body = await serviceStatus(host, 'Steady');
      return body.status === 'running' ? body.pid : undefined;
    },
    { what: 'Steady running' },
  );
  await eventually(async () => (await request(host.url, '/process/startup-status')).body.terminal, {
    what: 'boot done',
  });
  const restarted = await request(host.url, '/process/restart-service', {
    body: { process_name: 'Steady' },
  });
  t.is(restarted.status, 200, restarted.text);
  const second = (await serviceStatus(host, 'Steady')).pid;
  t.not(second, first);
  const stopped = await request(host.url, '/process/stop-service', {
    body: { process_name: 'Steady' },
  });
  t.is(stopped.status, 200, stopped.text);
  const log = await eventually(() => {
    const text = host.output();
    return text.includes(`Steady: stopped (pid ${second}, stop requested)`) ? text : undefined;
  });
  t.regex(log, /INFO .*Steady: restarting \(restart requested\)/);
  t.regex(log, new RegExp(`INFO .*Steady: stopped \\(pid ${first}, restart requested\\)`));
  t.regex(log, new RegExp(`INFO .*Steady: running \\(pid ${second}\\)`));
  t.regex(log, new RegExp(`INFO .*Steady: stopped \\(pid ${second}, stop requested\\)`));
  // Requested stops are no crash: the startup status still says ready.
  t.like((await request(host.url, '/process/startup-status')).body, {
    phase: 'ready',
    failures: {},
  });
});
