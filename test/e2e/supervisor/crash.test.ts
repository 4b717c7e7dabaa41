import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { fixtureBlock, program, serviceStatus, startSupervisor } from './support.js';

test('an unexpected exit backs off, restarts, and finally stays crashed; /health tells', async (t) => {
  const host = await startSupervisor({
    flaky: fixtureBlock(
      'Flaky',
      program('crashes'),
      // Up for 1.5 s: the suite's 300 ms start check passes even when CI load delays it.
      ['--after', '1500', '--count-file', 'runs.txt'],
      {
        restart_policy: { base_sec: 0.5, factor: 2, max_restarts: 2, window_seconds: 120 },
      },
    ),
  });
  t.teardown(() => host.stop());
  // Asked while the process is still up: the cached answer must not outlive the crash.
  t.like((await request(host.url, '/health')).body, { status: 'healthy' });
  const status = () => serviceStatus(host, 'Flaky');
  const backoff = await eventually(
    async () => {
      const body = await status();
      return body.status === 'backoff' ? body : undefined;
    },
    { what: 'backoff' },
  );
  t.is(backoff.exit_code, 1);
  t.regex(backoff.reason ?? '', /Flaky exited unexpectedly \(exit code 1\); restart 1 in 0.5 s/);
  const health = await request(host.url, '/health');
  t.like(health.body, { status: 'unhealthy' });
  t.regex(health.body.details as string, /Flaky backoff/);

  const final = await eventually(
    async () => {
      const body = await status();
      return body.status === 'crashed' && body.restarts === 2 ? body : undefined;
    },
    { what: 'gave up', timeoutMs: 20_000 },
  );
  t.regex(final.reason ?? '', /gave up after 2 restarts within 120 s/);
  t.is(readFileSync(join(host.dataDir, 'runs.txt'), 'utf8').trim().split('\n').length, 3);

  // A manual start forgets the history and runs it again.
  const started = await request(host.url, '/process/start-service', {
    body: { process_name: 'Flaky' },
  });
  t.like(started.body, { status: 'running' });
});
