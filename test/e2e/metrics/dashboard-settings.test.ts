/**
 * DUMB's Metrics settings against the real host: the candidates it lists, the storage status it
 * shows, and `dumb.metrics` read from and written to `stackd.metrics` (applied at once: the
 * next snapshot measures the new path), with what stackd does not have refused by field.
 */
import test from 'ava';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHost } from '../../helpers/start-host.js';
import { request } from '../../helpers/http.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';

const start = () =>
  startHost({
    plugins: ['supervisor', 'metrics'].map(builtinPlugin),
    config: { stackd: { metrics: { interval_ms: 250, history_interval_sec: 0.5 } } },
  });

test('the selection and storage flags are on and their routes answer', async (t) => {
  const host = await start();
  t.teardown(() => host.stop());
  const flags = (await request(host.url, '/api/process/capabilities')).body;
  t.true(flags.metrics_filesystem_selection);
  t.true(flags.metrics_network_interface_selection);
  t.true(flags.metrics_history_storage);

  const filesystems = await request(host.url, '/api/metrics/filesystems');
  t.is(filesystems.status, 200);
  const root = filesystems.body.candidates.find((c: { path: string }) => c.path === '/');
  t.truthy(root, 'the root filesystem is offered');
  t.is(typeof root.percent, 'number');
  t.truthy(root.fs_type);
  t.false(
    filesystems.body.candidates.some((c: { path: string }) =>
      /^\/(proc|sys|dev)(\/|$)/.test(c.path),
    ),
    'no pseudo filesystem is offered',
  );
  t.true(filesystems.body.selected.includes(host.dataDir));

  const interfaces = await request(host.url, '/api/metrics/network-interfaces');
  t.is(interfaces.status, 200);
  const lo = interfaces.body.candidates.find((c: { name: string }) => c.name === 'lo');
  t.like(lo, { loopback: true, is_up: true });
  t.deepEqual(interfaces.body.selected, ['all']);

  const storage = await eventually(async () => {
    const status = (await request(host.url, '/api/metrics/history/storage?probe_postgresql=true'))
      .body;
    return status.sqlite.samples > 0 ? status : undefined;
  });
  t.like(storage, {
    configured_provider: 'sqlite',
    active_provider: 'sqlite',
    fallback_active: false,
  });
  t.true(storage.sqlite.file_bytes > 0);
  t.true(storage.sqlite.newest_timestamp >= storage.sqlite.oldest_timestamp);
  t.like(
    (await request(host.url, '/api/metrics/history/migrate?force=true', { method: 'POST' })).body,
    {
      completed: true,
      files: 0,
    },
  );
});

test('dumb.metrics is stackd.metrics in the dashboard layout, applied when saved', async (t) => {
  const host = await start();
  t.teardown(() => host.stop());
  const shown = (await request(host.url, '/api/config')).body.dumb.metrics;
  t.like(shown, {
    filesystem_paths: ['/'],
    network_interfaces: ['all'],
    history_interval_sec: 0.5,
    storage: { provider: 'sqlite', migrate_jsonl: false },
    database_health: { enabled: false },
  });

  const watched = mkdtempSync(join(tmpdir(), 'stackd-watched-'));
  const saved = await request(host.url, '/api/config', {
    body: {
      persist: true,
      updates: {
        dumb: {
          ui: { theme: 'dark' },
          metrics: {
            ...shown,
            filesystem_paths: ['/', watched],
            network_interfaces: ['lo'],
            history_retention_days: 3,
            history_max_total_mb: 50,
          },
        },
      },
    },
  });
  t.is(saved.status, 200, JSON.stringify(saved.body));
  const file = JSON.parse(readFileSync(host.configPath as string, 'utf8'));
  t.like(file.stackd.metrics, {
    filesystem_paths: ['/', watched],
    network_interfaces: ['lo'],
    history_retention_days: 3,
    history_max_mb: 50,
  });
  t.deepEqual(
    file.dumb,
    { ui: { theme: 'dark' } },
    'UI preferences are kept; metrics are not stored twice',
  );
  t.like((await request(host.url, '/api/config')).body.dumb.metrics, {
    filesystem_paths: ['/', watched],
    history_max_total_mb: 50,
  });

  const snapshot = await eventually(async () => {
    const body = (await request(host.url, '/api/metrics')).body;
    return body.system.filesystems.some((fs: { path: string }) => fs.path === watched)
      ? body
      : undefined;
  });
  t.deepEqual(
    snapshot.system.network_interfaces.map((nic: { name: string }) => nic.name),
    ['lo'],
  );
});

test('what stackd does not have is refused naming the field, and nothing changes', async (t) => {
  const host = await start();
  t.teardown(() => host.stop());
  const shown = (await request(host.url, '/api/config')).body.dumb.metrics;
  const refusals: Array<[Record<string, unknown>, string]> = [
    [
      { storage: { ...shown.storage, provider: 'postgresql' } },
      'updates.dumb.metrics.storage.provider',
    ],
    [
      { storage: { ...shown.storage, migrate_jsonl: true } },
      'updates.dumb.metrics.storage.migrate_jsonl',
    ],
    [{ database_health: { enabled: true } }, 'updates.dumb.metrics.database_health.enabled'],
    [{ history_dir: '/elsewhere' }, 'updates.dumb.metrics.history_dir'],
    [{ filesystem_paths: ['relative/path'] }, 'updates.dumb.metrics.filesystem_paths.0'],
    [{ history_interval_sec: 0 }, 'updates.dumb.metrics.history_interval_sec'],
    [{ history_max_total_mb: 'lots' }, 'updates.dumb.metrics.history_max_total_mb'],
  ];
  for (const [change, field] of refusals) {
    const answer = await request(host.url, '/api/config', {
      body: { persist: true, updates: { dumb: { metrics: { ...shown, ...change } } } },
    });
    t.is(answer.status, 422, field);
    t.is(answer.body.field, field);
  }
  t.deepEqual((await request(host.url, '/api/config')).body.dumb.metrics, shown);
});

test('a POST /config that breaks a plugin slice is refused naming the field', async (t) => {
  const host = await start();
  t.teardown(() => host.stop());
  const answer = await request(host.url, '/api/config', {
    body: { persist: true, updates: { stackd: { metrics: { interval_ms: 'fast' } } } },
  });
  t.is(answer.status, 422);
  t.is(answer.body.field, 'stackd.metrics.interval_ms');
  t.is((await request(host.url, '/api/config')).body.stackd.metrics.interval_ms, 250);
});
