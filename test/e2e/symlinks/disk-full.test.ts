/**
 * Manifest backups onto a full disk (a small tmpfs, filled): the sync route answers 507 with an
 * error body, a background job ends in `error` with the reason, a scheduled run records the
 * failure, and the host keeps serving (before, the stream's ENOSPC was an uncaught exception
 * that stopped the host and every supervised process). Needs the right to mount a tmpfs (root
 * in a container, as in CI); skipped with the reason otherwise.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { fillUp, mountTinyFs } from '../../helpers/tiny-fs.js';
import { linkTree, startSymlinkHost } from './support.js';

const tiny = mountTinyFs(4);
test.after.always(() => {
  if (tiny.mounted) tiny.unmount();
});
const onTinyFs = tiny.mounted ? test.serial : test.serial.skip;
if (!tiny.mounted)
  test('disk-full symlink tests', (t) => {
    t.log(`skipped: ${tiny.reason}`);
    t.pass();
  });

onTinyFs(
  'a full manifest dir: 507, a failed job, a failed scheduled run, a live host',
  async (t) => {
    if (!tiny.mounted) return;
    const tree = linkTree();
    const manifests = join(tiny.dir, 'manifests');
    mkdirSync(manifests);
    const host = await startSymlinkHost([tree.links], {
      stackd: {
        symlinks: {
          default_roots: [tree.links],
          manifest_dirs: [manifests],
          schedule_check_sec: 1,
        },
      },
      decypharr: {
        process_name: 'Decypharr',
        command: ['true'],
        enabled: false,
        symlink_backup_enabled: true,
        symlink_backup_interval: 0.001,
        symlink_backup_start_time: '00:00',
        symlink_backup_path: join(manifests, 'scheduled-{timestamp}.json'),
        symlink_backup_roots: [tree.links],
      },
    });
    t.teardown(() => host.stop());
    const filler = fillUp(tiny.dir);
    t.teardown(() => rmSync(filler, { force: true }));

    const sync = await request(host.url, '/process/symlink-manifest/backup', {
      body: { backup_path: join(manifests, 'a2.json'), include_broken: true, roots: [tree.links] },
    });
    t.is(sync.status, 507, sync.text);
    t.is(sync.body.code, 'STORAGE_FULL');
    t.is(typeof sync.body.detail, 'string');

    const ack = await request(host.url, '/process/symlink-manifest/backup-async', {
      body: { backup_path: join(manifests, 'a3.json'), include_broken: true, roots: [tree.links] },
    });
    t.is(ack.status, 200, ack.text);
    const failed = await eventually(
      async () => {
        const job = await request(
          host.url,
          `/process/symlink-job-status?job_id=${ack.body.job_id}`,
        );
        return job.body.status === 'error' ? job.body : undefined;
      },
      { what: 'the job to fail', timeoutMs: 20_000 },
    );
    t.is(failed.error.code, 'STORAGE_FULL');
    t.regex(failed.error.message, /no space left/i);

    const scheduled = await eventually(
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
    t.is(scheduled.status, 'error');
    t.regex(scheduled.message, /no space left/i);

    t.deepEqual(
      readdirSync(manifests),
      [],
      'no half-written manifest or temp file is left in the full dir',
    );
    const health = await request(host.url, '/health');
    t.is(typeof health.body.status, 'string', `the host still answers: ${health.text}`);
    t.false(host.output().includes('uncaught exception'), host.output());
    t.is(host.child.exitCode, null, 'the host is still running');
    // Space back: the same backup works.
    rmSync(filler);
    const again = await request(host.url, '/process/symlink-manifest/backup', {
      body: { backup_path: join(manifests, 'a2.json'), include_broken: true, roots: [tree.links] },
    });
    t.is(again.status, 200, again.text);
  },
);

onTinyFs('a full data dir: the backup answers 507 and the host lives on', async (t) => {
  if (!tiny.mounted) return;
  const tree = linkTree();
  const dataDir = join(tiny.dir, 'data');
  mkdirSync(dataDir);
  const host = await startSymlinkHost([tree.links], {}, { dataDir });
  t.teardown(() => host.stop());
  const filler = fillUp(tiny.dir);
  t.teardown(() => rmSync(filler, { force: true }));
  const answer = await request(host.url, '/process/symlink-manifest/backup', {
    body: {
      backup_path: '/config/symlink-repair/snapshots/a2.json',
      include_broken: true,
      roots: [tree.links],
    },
  });
  t.is(answer.status, 507, answer.text);
  t.is(answer.body.code, 'STORAGE_FULL');
  const queued = await request(host.url, '/process/symlink-manifest/backup-async', {
    body: { backup_path: '/config/symlink-repair/snapshots/a3.json', include_broken: true },
  });
  // Either the queue itself cannot record the job (507) or the job fails: never a dead host.
  t.true([200, 507].includes(queued.status), queued.text);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const health = await request(host.url, '/health');
  t.is(health.body.status, 'unhealthy', 'the host answers, and says its data dir is full');
  t.is(host.child.exitCode, null, 'the host is still running');
  t.false(host.output().includes('uncaught exception'), host.output());
  rmSync(filler);
});
