/** Backup, compare, restore, persisted jobs across a restart, pickers, the scheduler, flags. */
import { readFileSync, readlinkSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { startHost } from '../../helpers/start-host.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { linkTree, startSymlinkHost } from './support.js';

test("backup, compare, restore: the original product's /config path maps to the data dir", async (t) => {
  const tree = linkTree();
  const host = await startSymlinkHost([tree.links]);
  t.teardown(() => host.stop());
  const backup = await request(host.url, '/process/symlink-manifest/backup', {
    body: { backup_path: '/config/symlink-repair/snapshots/latest.json', include_broken: false },
  });
  t.is(backup.status, 200, backup.text);
  t.like(backup.body, { scanned_symlinks: 5, recorded_entries: 4, skipped_broken: 1 });
  const file = join(host.dataDir, 'symlink-repair', 'snapshots', 'latest.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  t.is(manifest.manifest_type, 'symlink_snapshot');
  t.is(manifest.entries.length, 4);

  rmSync(join(tree.links, 'movies', 'a.mkv'));
  const compare = await request(
    host.url,
    `/process/symlink-manifest/compare?manifest_path=${encodeURIComponent('/config/symlink-repair/snapshots/latest.json')}&sample_limit=10`,
  );
  t.is(compare.status, 200, compare.text);
  t.like(compare.body, { total_entries: 4, projected_restored: 1, projected_skipped_unchanged: 3 });
  t.deepEqual(
    compare.body.sample_changes
      .filter((change: { action: string }) => change.action === 'create')
      .map((change: { link_path: string }) => change.link_path),
    [join(tree.links, 'movies', 'a.mkv')],
  );
  t.is(
    (
      await request(
        host.url,
        '/process/symlink-manifest/compare?manifest_path=latest.json&sample_limit=201',
      )
    ).status,
    422,
  );

  const preview = await request(host.url, '/process/symlink-manifest/restore', {
    body: { manifest_path: 'latest.json' },
  });
  t.like(preview.body, { dry_run: true, restored: 1 });
  t.false(existsSync(join(tree.links, 'movies', 'a.mkv')), 'a dry run writes nothing');
  const restored = await request(host.url, '/process/symlink-manifest/restore', {
    body: { manifest_path: 'latest.json', dry_run: false },
  });
  t.like(restored.body, { restored: 1, skipped_unchanged: 3 });
  t.is(readlinkSync(join(tree.links, 'movies', 'a.mkv')), join(tree.oldRoot, 'a.mkv'));

  const missing = await request(host.url, '/process/symlink-manifest/restore', {
    body: { manifest_path: 'nope.json' },
  });
  t.is(missing.status, 404);
  for (const bad of ['../../../etc/passwd', '/etc/passwd', 'a\u0000b'])
    t.is(
      (
        await request(host.url, '/process/symlink-manifest/restore', {
          body: { manifest_path: bad },
        })
      ).status,
      400,
      bad,
    );

  const files = await request(host.url, '/process/symlink-manifest-files');
  t.is(files.status, 200);
  t.deepEqual(
    files.body.files.map((entry: { name: string }) => entry.name),
    ['latest.json'],
  );
  t.is(
    (await request(host.url, '/process/symlink-manifest-files?manifest_path=../x.json')).status,
    400,
  );
});

test('async jobs: queued, then completed with progress; they survive a restart', async (t) => {
  const tree = linkTree();
  const first = await startSymlinkHost([tree.links]);
  const ack = await request(first.url, '/process/symlink-manifest/backup-async', {
    body: { backup_path: 'nightly.json', process_name: 'Decypharr' },
  });
  t.like(ack.body, { status: 'queued', operation: 'symlink_manifest_backup' });
  const done = await eventually(async () => {
    const job = await request(first.url, `/process/symlink-job-status?job_id=${ack.body.job_id}`);
    return job.body.status === 'completed' ? job.body : undefined;
  });
  t.like(done.result, { recorded_entries: 5 });
  t.like(done.progress, { stage: 'completed' });
  const latest = await request(
    first.url,
    '/process/symlink-job-latest?process_name=decypharr&active_only=false',
  );
  t.is(latest.body.job.job_id, ack.body.job_id);
  t.deepEqual(
    (await request(first.url, '/process/symlink-job-latest?process_name=decypharr')).body,
    { job: null },
  );
  t.is((await request(first.url, '/process/symlink-job-status?job_id=nope')).status, 404);
  const bad = await request(first.url, '/process/symlink-repair-async', { body: {} });
  t.is(bad.status, 400, 'a bad async request is refused at once');
  await first.stop();

  const second = await startSymlinkHost(
    [tree.links],
    {},
    { dataDir: first.dataDir, configPath: first.configPath as string },
  );
  t.teardown(() => second.stop());
  const kept = await request(second.url, `/process/symlink-job-status?job_id=${ack.body.job_id}`);
  t.like(kept.body, { status: 'completed', process_name: 'Decypharr' });
});

test('scheduled backups run when due, prune to the retention, and report their state', async (t) => {
  const tree = linkTree();
  const host = await startSymlinkHost([tree.links], {
    decypharr: {
      process_name: 'Decypharr',
      command: ['true'],
      enabled: false,
      symlink_backup_enabled: true,
      symlink_backup_interval: 0.001,
      symlink_backup_start_time: '00:00',
      symlink_backup_retention_count: 2,
      symlink_backup_roots: [tree.links],
    },
    radarr: { process_name: 'Radarr', command: ['true'], enabled: false },
  });
  t.teardown(() => host.stop());
  const status = await eventually(
    async () => {
      const body = (
        await request(host.url, '/process/symlink-backup-status?process_name=Decypharr')
      ).body;
      return body.symlink_backup_status?.last_backup_at !== undefined
        ? body.symlink_backup_status
        : undefined;
    },
    { what: 'a scheduled run', timeoutMs: 20_000 },
  );
  t.is(status.status, 'completed');
  t.is(status.recorded_entries, 5);
  await eventually(
    async () =>
      (await request(host.url, '/process/symlink-backup-manifests?process_name=Decypharr')).body
        .count >= 2,
    { what: 'two backups', timeoutMs: 20_000 },
  );
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const listed = await request(
    host.url,
    '/process/symlink-backup-manifests?process_name=Decypharr',
  );
  t.is(listed.body.count, 2, 'pruned to the retention count');
  t.regex(listed.body.pattern, /decypharr-\*\.json$/);
  t.like(
    (
      await request(host.url, '/process/symlink-backup/reschedule', {
        body: { process_name: 'Radarr' },
      })
    ).body,
    {
      status: 'error',
    },
  );
  t.like(
    (
      await request(host.url, '/process/symlink-backup/reschedule', {
        body: { process_name: 'Decypharr' },
      })
    ).body,
    {
      status: 'ok',
    },
  );
  t.is(
    (await request(host.url, '/process/symlink-backup-manifests?process_name=Nobody')).status,
    404,
  );
});

test('every symlink capability flag is on while the plugin runs, off without it', async (t) => {
  const host = await startSymlinkHost([]);
  t.teardown(() => host.stop());
  const flags = (await request(host.url, '/process/capabilities')).body;
  const symlinkFlags = Object.entries(flags.capabilities ?? flags).filter(([name]) =>
    name.startsWith('symlink_'),
  );
  t.is(symlinkFlags.length, 12);
  t.true(symlinkFlags.every(([, value]) => value === true));
  const without = await startHost({ plugins: [builtinPlugin('graph')] });
  t.teardown(() => without.stop());
  const off = (await request(without.url, '/process/capabilities')).body;
  t.false((off.capabilities ?? off).symlink_repair);
});
