import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import type { RunningHostProcess } from '../../helpers/start-host.js';
import { startPrometheus } from './prometheus-server.js';
import { enableAuthWithScrapeToken, fleetServices, startFleetHost } from './support.js';

/** The PromQL of every panel of `docs/grafana/stackd-fleet.json`. */
function dashboardQueries(): string[] {
  const file = fileURLToPath(
    new URL('../../../../docs/grafana/stackd-fleet.json', import.meta.url),
  );
  const dashboard = JSON.parse(readFileSync(file, 'utf8')) as {
    panels: Array<{ targets: Array<{ expr: string }> }>;
  };
  return dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
}

const NAMES = ['nas', 'transcoder', 'seedbox'] as const;

test('three hosts watched by a real Prometheus: every process, up, restarts rising, the restart storm alert, one host stopped', async (t) => {
  t.timeout(90_000);
  const hosts: RunningHostProcess[] = await Promise.all(
    NAMES.map((name) => startFleetHost(fleetServices(name))),
  );
  t.teardown(() => Promise.all(hosts.map((host) => host.stop())));
  const tokens = await Promise.all(hosts.map((host) => enableAuthWithScrapeToken(host)));
  const addresses = hosts.map((host) => `127.0.0.1:${host.port}`);
  const prometheus = await startPrometheus(
    addresses.map((address, index) => ({ address, token: tokens[index]?.scrape ?? '' })),
  );
  t.teardown(() => prometheus.stop());
  const answer = async (promql: string) => {
    const result = await prometheus.query(promql);
    t.log(promql, '→', result.map((r) => `${JSON.stringify(r.metric)} ${r.value[1]}`).join('; '));
    return result;
  };

  const upAll = await eventually(
    async () => {
      const result = await prometheus.query('up{job="stackd"} == 1');
      return result.length === 3 ? result : undefined;
    },
    { what: 'three targets up', timeoutMs: 20_000, intervalMs: 250 },
  );
  t.deepEqual(upAll.map((r) => r.metric.instance).sort(), [...addresses].sort());
  await answer('up{job="stackd"}');

  const expected = addresses
    .flatMap((address, index) =>
      ['steady-1', 'steady-2', 'looper'].map((p) => `${address} ${NAMES[index]}-${p}`),
    )
    .sort();
  // Every host also lists itself ('stackd API', the api_service block) as a process.
  const fleetProcesses = 'stackd_process_up{process!="stackd API"}';
  const seen = await eventually(
    async () => {
      const result = await prometheus.query(fleetProcesses);
      const names = result.map((r) => `${r.metric.instance} ${r.metric.process}`).sort();
      return names.length === expected.length ? names : undefined;
    },
    { what: 'every process of every host', timeoutMs: 15_000, intervalMs: 250 },
  );
  t.deepEqual(seen, expected);
  await answer(fleetProcesses);
  await answer('count by (instance) (stackd_process_up)');
  await answer('sum by (instance) (stackd_process_up)');

  const looper = 'stackd_process_restarts_total{process=~".*-looper"}';
  const before = await answer(looper);
  const rising = await eventually(
    async () => {
      const now = await prometheus.query(`${looper} > 0`);
      const grown = now.filter((r) => {
        const earlier = before.find((b) => b.metric.instance === r.metric.instance);
        return Number(r.value[1]) > Number(earlier?.value[1] ?? 0);
      });
      return grown.length === 3 ? now : undefined;
    },
    { what: 'restarts rising on every looper', timeoutMs: 15_000, intervalMs: 500 },
  );
  t.is(rising.length, 3);
  await answer(looper);
  await answer('increase(stackd_process_restarts_total[30s])');

  const storms = await eventually(
    async () => {
      const alerts = (await prometheus.alerts()).filter(
        (a) => a.labels.alertname === 'StackdRestartStorm',
      );
      return alerts.length === 3 ? alerts : undefined;
    },
    { what: 'the restart-storm alert on every host', timeoutMs: 20_000, intervalMs: 500 },
  );
  t.log(
    'restart storm alerts:',
    storms.map((a) => `${a.labels.instance} ${a.labels.process} ${a.state}`),
  );
  for (const alert of storms) {
    t.true(['pending', 'firing'].includes(alert.state));
    t.regex(alert.labels.process ?? '', /-looper$/);
  }

  // Every query of the shipped Grafana dashboard parses and finds data on the fleet.
  for (const expr of dashboardQueries()) {
    const result = await prometheus.query(expr.replaceAll('$instance', '.*'));
    t.true(Array.isArray(result), expr);
  }

  // Stop the third host: its target goes down, its HostDown fires, nothing new on the others.
  const stopped = addresses[2] ?? '';
  await hosts[2]?.stop();
  await eventually(
    async () => (await prometheus.query(`up{instance="${stopped}"} == 0`)).length === 1,
    { what: 'the stopped host down', timeoutMs: 15_000, intervalMs: 250 },
  );
  await answer('up{job="stackd"}');
  const down = await eventually(
    async () => {
      const alerts = await prometheus.alerts();
      return alerts.some((a) => a.labels.alertname === 'StackdHostDown' && a.state === 'firing')
        ? alerts
        : undefined;
    },
    { what: 'StackdHostDown firing', timeoutMs: 15_000, intervalMs: 250 },
  );
  t.log(
    'alerts after the stop:',
    down.map(
      (a) => `${a.labels.alertname} ${a.labels.instance} ${a.labels.process ?? ''} ${a.state}`,
    ),
  );
  const spurious = down.filter(
    (a) =>
      a.state === 'firing' &&
      a.labels.instance !== stopped &&
      !(a.labels.alertname === 'StackdRestartStorm' && /-looper$/.test(a.labels.process ?? '')),
  );
  t.deepEqual(
    spurious,
    [],
    "nothing fires on the two running hosts but the loopers' restart storms",
  );
  t.deepEqual(
    down.filter((a) => a.labels.alertname === 'StackdHostDown').map((a) => a.labels.instance),
    [stopped],
  );
  t.deepEqual(
    (await prometheus.query('up{job="stackd"} == 1')).map((r) => r.metric.instance).sort(),
    addresses.slice(0, 2).sort(),
  );
});
