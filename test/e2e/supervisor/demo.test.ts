import test from 'ava';
import { createServer } from 'node:net';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { startHost } from '../../helpers/start-host.js';
import { SUPERVISOR_PLUGIN } from './support.js';

test('with no configuration the bundled demo stack runs under the supervisor', async (t) => {
  const host = await startHost({ plugins: [SUPERVISOR_PLUGIN] });
  t.teardown(() => host.stop());
  const statuses = await eventually(
    async () => {
      const { body } = await request(host.url, '/process/processes');
      const entries = body.processes as { process_name: string; status: string }[];
      return entries.every((entry) => entry.status === 'running') ? entries : undefined;
    },
    { what: 'every demo process running', timeoutMs: 20_000 },
  );
  t.deepEqual(
    statuses.map((entry) => entry.process_name),
    ['stackd API', 'Demo Web', 'Demo Worker', 'Demo Client'],
  );
  // The client waited for the web service's /health before it was launched.
  const log = await eventually(
    async () => {
      const { body } = await request<{ chunk: string }>(host.url, '/logs?process_name=Demo%20Web');
      return body.chunk.includes('GET /health') ? body.chunk : undefined;
    },
    { what: 'the health probe in the web log' },
  );
  t.regex(log, /demo web listening/);
  t.is(await host.stop(), 0);
});

test('the demo takes another port when 8091 is in use, and says so', async (t) => {
  const blocker = createServer();
  // If something else already holds 8091 the situation is the same: the demo must move.
  await new Promise<void>((resolve) => {
    blocker.once('error', () => resolve());
    blocker.listen(8091, '127.0.0.1', () => resolve());
  });
  t.teardown(() => blocker.close());
  const host = await startHost({ plugins: [SUPERVISOR_PLUGIN] });
  t.teardown(() => host.stop());
  await eventually(
    async () => {
      const { body } = await request(host.url, '/process/processes');
      const entries = body.processes as { status: string }[];
      return entries.every((entry) => entry.status === 'running') || undefined;
    },
    { what: 'every demo process running next to the blocker', timeoutMs: 20_000 },
  );
  t.regex(host.output(), /demo: port 8091 is in use; the demo uses \d+ instead/);
});
