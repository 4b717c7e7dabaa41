/**
 * A host whose stdout and stderr pipes closed (its launcher died) keeps serving, still logs to
 * its subscribers, and stops on SIGTERM: EPIPE on its own output is harmless.
 */
import test from 'ava';
import { request } from '../../helpers/http.js';
import { startHost } from '../../helpers/start-host.js';
import { HELLO_PLUGIN_DIR } from '../../helpers/fixture-paths.js';

test('closed stdout/stderr: /health answers, logging goes on, SIGTERM still stops it', async (t) => {
  const host = await startHost({
    plugins: [HELLO_PLUGIN_DIR],
    config: { stackd: { api_service: { log_level: 'DEBUG' } } },
  });
  // The reading ends go away, as when the process that launched the host dies.
  host.child.stdout?.destroy();
  host.child.stderr?.destroy();
  for (let round = 0; round < 50; round += 1) {
    // Each of these logs (debug, warnings for refusals): writes hit the closed pipes.
    await request(host.url, `/no/such/route/${round}`);
    await request(host.url, '/hello/echo', { body: { name: 'x' } });
  }
  const health = await request(host.url, '/health');
  t.is(health.status, 200);
  t.is(health.body.status, 'healthy');
  const stopped = await Promise.race([
    host.stop('SIGTERM'),
    new Promise<string>((resolve) => setTimeout(() => resolve('hung'), 15_000)),
  ]);
  t.is(stopped, 0, 'it exits 0 on SIGTERM');
});
