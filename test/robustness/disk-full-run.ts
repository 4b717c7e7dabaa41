/**
 * Disk full during background work (`npm run fuzz`): the fuzz host (every plugin) with its
 * symlink manifest folder on a small tmpfs, filled; then sync and background backups, a repair
 * with a backup manifest, and a scheduled backup all hit ENOSPC at once. Each must fail on its
 * own (507, or a job/schedule in `error` with the reason) while the host keeps serving and no
 * uncaught exception is logged; once space is back, a backup works again. Skipped (with the
 * reason) where a tmpfs cannot be mounted.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually.js';
import { request } from '../helpers/http.js';
import { startHost } from '../helpers/start-host.js';
import { fillUp, mountTinyFs } from '../helpers/tiny-fs.js';
import { fuzzConfig } from './fuzz-host.js';

/** What the run found (empty: nothing), or why it did not run. */
export interface DiskFullReport {
  readonly skipped: string | null;
  readonly problems: string[];
}

function withFullManifestDir(tag: string, manifests: string): Record<string, unknown> {
  const config = fuzzConfig(tag);
  const stackd = config.stackd as Record<string, Record<string, unknown>>;
  const symlinks = stackd.symlinks as { allowed_roots: string[]; default_roots: string[] };
  stackd.symlinks = { ...symlinks, manifest_dirs: [manifests], schedule_check_sec: 1 };
  return {
    ...config,
    nightly: {
      enabled: false,
      process_name: 'Nightly',
      command: ['true'],
      symlink_backup_enabled: true,
      symlink_backup_interval: 0.001,
      symlink_backup_start_time: '00:00',
      symlink_backup_path: join(manifests, 'nightly-{timestamp}.json'),
      symlink_backup_roots: symlinks.default_roots,
    },
  };
}

/** Run the disk-full case once. */
export async function runDiskFull(tag: string): Promise<DiskFullReport> {
  const tiny = mountTinyFs(4, 'stackd-fuzz-full-');
  if (!tiny.mounted) return { skipped: tiny.reason, problems: [] };
  const problems: string[] = [];
  const manifests = join(tiny.dir, 'manifests');
  mkdirSync(manifests);
  const host = await startHost({ config: withFullManifestDir(tag, manifests) });
  try {
    const credentials = { username: 'admin', password: 'admin-password' };
    const setup = await request(host.url, '/api/auth/setup', { body: credentials });
    const token = setup.body.access_token as string;
    const post = (path: string, body: unknown) => request(host.url, path, { body, token });
    const filler = fillUp(tiny.dir);
    const sync = await post('/process/symlink-manifest/backup', {
      backup_path: join(manifests, 'sync.json'),
      include_broken: true,
    });
    if (sync.status !== 507) problems.push(`sync backup answered ${sync.status}: ${sync.text}`);
    const acks = await Promise.all([
      post('/process/symlink-manifest/backup-async', {
        backup_path: join(manifests, 'async.json'),
        include_broken: true,
      }),
      post('/process/symlink-repair-async', {
        dry_run: false,
        rewrite_rules: [{ from_prefix: '/nowhere', to_prefix: '/elsewhere' }],
        backup_path: join(manifests, 'repair-backup.json'),
      }),
    ]);
    for (const ack of acks) {
      if (ack.status !== 200) {
        problems.push(`a background job was not queued: ${ack.status} ${ack.text}`);
        continue;
      }
      const job = await eventually(
        async () => {
          const status = await request(
            host.url,
            `/process/symlink-job-status?job_id=${ack.body.job_id}`,
            { token },
          );
          return ['completed', 'error'].includes(status.body.status) ? status.body : undefined;
        },
        { what: `job ${ack.body.job_id} to end`, timeoutMs: 30_000 },
      ).catch((error: Error) => ({ status: 'stuck', error: { message: error.message } }));
      // The repair changed nothing (no link matched), so it wrote no manifest and may complete.
      if (ack.body.operation === 'symlink_manifest_backup' && job.status !== 'error')
        problems.push(`the background backup ended ${job.status}, not error`);
      if (job.status === 'error' && job.error?.code !== 'STORAGE_FULL')
        problems.push(`job ${ack.body.job_id} failed without STORAGE_FULL: ${JSON.stringify(job)}`);
    }
    const scheduled = await eventually(
      async () => {
        const status = await request(
          host.url,
          '/process/symlink-backup-status?process_name=Nightly',
          { token },
        );
        return status.body.symlink_backup_status?.last_backup_at !== undefined
          ? status.body.symlink_backup_status
          : undefined;
      },
      { what: 'a scheduled backup', timeoutMs: 30_000 },
    ).catch(() => ({ status: 'never ran' }));
    if (scheduled.status !== 'error')
      problems.push(`the scheduled backup ended ${scheduled.status}, not error`);
    if (host.child.exitCode !== null) problems.push(`the host exited (${host.child.exitCode})`);
    if (host.output().includes('uncaught exception')) problems.push('an uncaught exception');
    rmSync(filler, { force: true });
    const again = await post('/process/symlink-manifest/backup', {
      backup_path: join(manifests, 'sync.json'),
      include_broken: true,
    });
    if (again.status !== 200) problems.push(`with space back, backup answered ${again.status}`);
  } catch (error) {
    problems.push(`the run broke: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await host.stop();
    tiny.unmount();
  }
  return { skipped: null, problems };
}
