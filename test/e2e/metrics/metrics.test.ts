import test from 'ava';
import { join } from 'node:path';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';
import { openSocket, request } from '../../helpers/http.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';
import type { MetricsSeries } from '../../../sdk/contracts/metrics-feed.js';
import type { DashboardSnapshot } from '../../../plugins/metrics/wire/dashboard-snapshot.js';
import type { HistorySeriesPayload } from '../../../plugins/metrics/wire/history-series.js';

interface MetricsHistoryPage {
  items: DashboardSnapshot[];
  truncated: boolean;
}

const PLUGIN = builtinPlugin('metrics');

let host: RunningHostProcess;

test.before(async () => {
  host = await startHost({
    plugins: [PLUGIN],
    config: {
      stackd: {
        metrics: { interval_ms: 400, history_interval_sec: 0.5, filesystem_paths: ['/', 'media'] },
      },
    },
  });
});

test.after.always(async () => {
  await host?.stop();
});

test('GET /metrics: the latest snapshot with system figures and no processes without a supervisor', async (t) => {
  const response = await request<DashboardSnapshot>(host.url, '/metrics');
  t.is(response.status, 200);
  const body = response.body;
  t.is(typeof body.timestamp, 'number', 'epoch seconds, as the DUMB dashboard reads it');
  t.is(Date.parse(body.taken_at), Math.round(body.timestamp * 1000));
  t.deepEqual(body.processes, {});
  t.deepEqual(body.dumb_managed, []);
  t.true((body.system?.memory.total_bytes ?? 0) > 0);
  t.is(body.system?.mem.total, body.system?.memory.total_bytes);
  t.is(body.system?.disk?.path, '/', 'disk aliases the first filesystem');
  t.is(typeof body.system?.inode?.percent, 'number');
  const filesystems = body.system?.filesystems ?? [];
  t.deepEqual(
    filesystems.map((fs) => fs.path),
    ['/', join(host.dataDir, 'media'), host.dataDir],
  );
  t.false(filesystems[1]?.available, 'a configured path that does not exist');
  t.true(filesystems[2]?.available);
  const viaApi = await request(host.url, '/api/metrics');
  t.is(viaApi.status, 200);
});

type Frame = { type: 'snapshot'; data: DashboardSnapshot };
const frame = (message: string): Frame => JSON.parse(message) as Frame;

test('/ws/metrics: a frame on connect, then the next tick', async (t) => {
  const socket = await openSocket(host.url, '/ws/metrics?interval=0.5');
  t.teardown(() => socket.close());
  const first = frame(await socket.next());
  t.is(first.type, 'snapshot');
  t.truthy(first.data.system);
  const second = frame(
    await socket.next((message) => frame(message).data.timestamp !== first.data.timestamp),
  );
  t.is(second.type, 'snapshot');
  t.true(second.data.timestamp > first.data.timestamp);
  const cpu = second.data.system?.cpu_percent ?? -1;
  t.true(cpu >= 0 && cpu <= 100);
});

test('/ws/metrics with bootstrap=true (the DUMB Metrics page): history first, then snapshots', async (t) => {
  await eventually(async () => {
    const page = await request<MetricsHistoryPage>(host.url, '/metrics/history?limit=3');
    return page.body.items.length === 3;
  });
  const socket = await openSocket(
    host.url,
    '/ws/metrics?interval=2&history=false&bootstrap=true&history_points=600&history_bucket=5',
  );
  t.teardown(() => socket.close());
  const boot = JSON.parse(await socket.next()) as HistorySeriesPayload & {
    type: string;
    snapshot: DashboardSnapshot;
  };
  t.is(boot.type, 'bootstrap');
  t.is(typeof boot.snapshot.timestamp, 'number');
  t.true(boot.items.length >= 1);
  t.is(boot.timestamps.length, boot.items.length);
  t.is(boot.series.cpu.length, boot.items.length);
  t.is(boot.series.net_recv_rate[0], null, 'no rate for the first point');
  // Six hours in at most 600 points: buckets of 36 s, over the 5 s asked for.
  t.is(boot.bucket_seconds, 36);
  const next = frame(await socket.next((message) => frame(message).type === 'snapshot'));
  t.is(typeof next.data.timestamp, 'number');
});

test('/ws/metrics: a slower client interval skips ticks', async (t) => {
  const fast = await openSocket(host.url, '/ws/metrics?interval=0.5');
  const slow = await openSocket(host.url, '/ws/metrics?interval=2');
  t.teardown(() => {
    fast.close();
    slow.close();
  });
  await slow.next();
  await fast.next();
  // Wait for the slow client's second frame; the fast one got several in the same time.
  await slow.next((message) => slow.messages.indexOf(message) >= 1);
  t.true(
    fast.messages.length > slow.messages.length,
    `${fast.messages.length} vs ${slow.messages.length}`,
  );
});

test('/ws/metrics: an invalid interval is refused with 1008', async (t) => {
  const socket = await openSocket(host.url, '/ws/metrics?interval=soon');
  const closed = await socket.closed;
  t.is(closed.code, 1008);
  t.regex(closed.reason, /interval/);
});

test('history accumulates; history and series queries read it', async (t) => {
  const page = await eventually(
    async () => {
      const response = await request<MetricsHistoryPage>(host.url, '/metrics/history?limit=3');
      return response.body.items.length === 3 ? response.body : undefined;
    },
    { what: 'three stored snapshots' },
  );
  t.true(page.truncated === true || page.truncated === false);
  const times = page.items.map((item) => item.timestamp * 1000);
  t.deepEqual(
    times,
    [...times].sort((a, b) => a - b),
    'oldest first',
  );
  const since = (times[0] ?? 0) / 1000;
  const bounded = await request<MetricsHistoryPage>(
    host.url,
    `/metrics/history?since=${since}&until=${(times[1] ?? 0) / 1000}`,
  );
  t.is(bounded.status, 200);
  t.deepEqual(
    bounded.body.items.map((item) => item.timestamp * 1000),
    times.slice(0, 2),
  );

  const cpu = await request<MetricsSeries>(
    host.url,
    `/metrics/series?metric=cpu_percent&since=${since - 60}&bucket_sec=1`,
  );
  t.is(cpu.status, 200);
  t.is(cpu.body.kind, 'gauge');
  t.is(cpu.body.bucket_sec, 1);
  // The very first sample has no CPU figure yet (it needs two readings): at least 2 of 3 count.
  t.true(cpu.body.points.reduce((sum, point) => sum + point.samples, 0) >= 2);
  for (const point of cpu.body.points)
    t.true((point.value ?? -1) >= 0 && (point.value ?? 101) <= 100);

  const rx = await request<MetricsSeries>(
    host.url,
    `/metrics/series?metric=net_rx_rate&since=${since - 60}`,
  );
  t.is(rx.body.kind, 'rate');
  t.is(rx.body.unit, 'bytes_per_sec');
  t.true(rx.body.points.length >= 1);
  t.true(rx.body.points.every((point) => (point.value ?? -1) >= 0));

  const disk = await request<MetricsSeries>(host.url, '/metrics/series?metric=disk_percent');
  t.is(disk.body.path, '/');
  t.true(disk.body.points.length >= 1);

  // The chart payload of the DUMB Metrics page: downsampled, aligned series, min/max.
  const charts = await request<HistorySeriesPayload>(
    host.url,
    `/api/metrics/history_series?since=${since - 60}&limit=5000&max_points=600&bucket_seconds=5`,
  );
  t.is(charts.status, 200);
  t.is(charts.body.bucket_seconds, 5);
  t.true(charts.body.items.length >= 1);
  t.deepEqual(
    charts.body.timestamps,
    charts.body.items.map((item) => item.timestamp),
  );
  for (const values of Object.values(charts.body.series))
    t.is(values.length, charts.body.items.length);
  const mem = charts.body.stats.mem;
  t.true(mem !== null && mem.min <= mem.max);
  // 5 s buckets keep one snapshot (the last) per bucket.
  const buckets = charts.body.timestamps.map((stamp) => Math.floor(stamp / 5));
  t.is(new Set(buckets).size, buckets.length);
});

test('422 on bad query values, naming the field', async (t) => {
  const cases: [string, string][] = [
    ['/metrics/history?limit=0', 'limit'],
    ['/metrics/history?limit=many', 'limit'],
    ['/metrics/history?since=-5', 'since'],
    ['/metrics/history?since=200&until=100', 'since'],
    ['/metrics/series?metric=bogus', 'metric'],
    ['/metrics/series', 'metric'],
    ['/metrics/series?metric=process_cpu_percent', 'process_name'],
    ['/metrics/series?metric=cpu_percent&bucket_sec=0', 'bucket_sec'],
    ['/metrics/history_series?max_points=0', 'max_points'],
  ];
  for (const [path, field] of cases) {
    const response = await request(host.url, path);
    t.is(response.status, 422, path);
    t.is(response.body.field, field, path);
    t.truthy(response.body.code, path);
  }
});
