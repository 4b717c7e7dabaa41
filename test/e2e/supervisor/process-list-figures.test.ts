/**
 * GET /process/processes carries what a list view wants without a request per process: uptime,
 * CPU and memory of the tree (from the cached metrics sample), and for stackd's own entry the
 * port it really listens on (`--port 0` resolved), not the configured one.
 */
import test from 'ava';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';
import { openSocket, request } from '../../helpers/http.js';
import { fixtureBlock, program, startSupervisor } from './support.js';

interface ListEntry {
  process_name: string;
  status: string;
  config: Record<string, unknown>;
  uptime_s: number | null;
  cpu_percent: number | null;
  rss_bytes: number | null;
}

test('the list has uptime, CPU and memory; the API entry shows the port it listens on', async (t) => {
  const host = await startSupervisor(
    {
      web: fixtureBlock('Web', program('long-running')),
      idle: { ...fixtureBlock('Idle', program('long-running')), enabled: false },
    },
    {
      plugins: [builtinPlugin('metrics')],
      sections: { metrics: { interval_ms: 500 } },
    },
  );
  t.teardown(() => host.stop());
  // A stream subscriber keeps the collectors ticking at their fastest.
  const socket = await openSocket(host.url, '/ws/metrics?interval=1');
  t.teardown(() => socket.close());
  const list = async (): Promise<ListEntry[]> =>
    (await request<{ processes: ListEntry[] }>(host.url, '/process/processes')).body.processes;
  const entries = await eventually(
    async () => {
      const found = await list();
      const web = found.find((entry) => entry.process_name === 'Web');
      return web?.status === 'running' && web.cpu_percent !== null && (web.uptime_s ?? 0) > 0
        ? found
        : undefined;
    },
    { what: 'Web running with figures', timeoutMs: 20_000 },
  );
  const byName = new Map(entries.map((entry) => [entry.process_name, entry]));
  const web = byName.get('Web');
  t.true((web?.uptime_s ?? -1) > 0);
  t.true((web?.cpu_percent ?? -1) >= 0);
  t.true(
    (web?.rss_bytes ?? 0) > 1_000_000,
    `a node process holds megabytes: ${JSON.stringify(web)}`,
  );
  const idle = byName.get('Idle');
  t.deepEqual([idle?.uptime_s, idle?.cpu_percent, idle?.rss_bytes], [null, null, null]);
  const api = byName.get('stackd API');
  t.is(api?.status, 'running');
  t.is(api?.config.port, host.port, 'the port of --port 0, resolved');
  t.true((api?.uptime_s ?? -1) >= 0);
});

test('GET /metrics says how old its snapshot is', async (t) => {
  const host = await startSupervisor({}, { plugins: [builtinPlugin('metrics')] });
  t.teardown(() => host.stop());
  const answer = await request<{ age_ms: number; taken_at: string }>(host.url, '/metrics');
  t.is(answer.status, 200, answer.text);
  t.is(typeof answer.body.age_ms, 'number');
  t.true(answer.body.age_ms >= 0);
  const sampledAgo = Date.now() - Date.parse(answer.body.taken_at);
  t.true(
    Math.abs(sampledAgo - answer.body.age_ms) < 5_000,
    `${sampledAgo} vs ${answer.body.age_ms}`,
  );
});
