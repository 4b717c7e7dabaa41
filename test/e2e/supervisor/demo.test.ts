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

test('a host started again adopts the demo unchanged, on the port it moved to', async (t) => {
  // A stranger on 8091 makes the demo move; the next host finds 8091 still taken and the moved
  // port held by the demo web it is about to adopt, and must keep that port, not restart it.
  const blocker = createServer();
  await new Promise<void>((resolve) => {
    blocker.once('error', () => resolve());
    blocker.listen(8091, '127.0.0.1', () => resolve());
  });
  t.teardown(() => blocker.close());
  const listed = async (url: string): Promise<Map<string, { pid: number; restarts: number }>> => {
    const { body } = await request(url, '/process/processes');
    const entries = body.processes as {
      process_name: string;
      status: string;
      pid: number;
      restarts: number;
    }[];
    if (!entries.every((entry) => entry.status === 'running')) throw new Error('not all running');
    return new Map(entries.map((entry) => [entry.process_name, entry]));
  };
  const first = await startHost({ plugins: [SUPERVISOR_PLUGIN] });
  t.teardown(() => first.stop());
  const before = await eventually(() => listed(first.url).catch(() => undefined), {
    what: 'every demo process running',
    timeoutMs: 20_000,
  });
  await first.stop('SIGKILL');
  const second = await startHost({ plugins: [SUPERVISOR_PLUGIN], dataDir: first.dataDir });
  t.teardown(() => second.stop());
  const after = await eventually(() => listed(second.url).catch(() => undefined), {
    what: 'every demo process running under the second host',
    timeoutMs: 20_000,
  });
  for (const name of ['Demo Web', 'Demo Worker', 'Demo Client']) {
    t.is(after.get(name)?.pid, before.get(name)?.pid, `${name} keeps its pid`);
    t.is(after.get(name)?.restarts, 0, `${name} was not restarted`);
  }
  t.notRegex(second.output(), /configuration changed while no host ran/);
});
