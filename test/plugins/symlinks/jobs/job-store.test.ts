/** The persisted symlink jobs in a real SQLite file: their life, the latest query and restarts. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { FolderStorage } from '../../../../core/storage/plugin-storage.js';
import { JobStore, normalizedName } from '../../../../plugins/symlinks/jobs/job-store.js';

function store(): { jobs: JobStore; reopen: () => JobStore } {
  const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'stackd-jobs-')), 'symlinks');
  return {
    jobs: new JobStore(() => storage.openDatabase('jobs.sqlite')),
    reopen: () => new JobStore(() => storage.openDatabase('jobs.sqlite')),
  };
}

test('a job goes queued, running, completed with its progress and result', (t) => {
  const { jobs } = store();
  const job = jobs.create('Radarr', 'symlink_repair', { dry_run: true });
  t.like(job, { status: 'queued', process_name: 'Radarr', operation: 'symlink_repair' });
  jobs.started(job.job_id, { stage: 'collecting' });
  t.like(jobs.get(job.job_id), { status: 'running', progress: { stage: 'collecting' } });
  jobs.progressed(job.job_id, { stage: 'processing', processed_items: 5 });
  t.like(jobs.get(job.job_id), { progress: { processed_items: 5 } });
  const done = jobs.completed(job.job_id, { changed: 3 });
  t.like(done, { status: 'completed', result: { changed: 3 } });
  t.is(jobs.get('no-such-job'), undefined);
});

test('a failed job keeps its error', (t) => {
  const { jobs } = store();
  const job = jobs.create('Sonarr', 'symlink_manifest_backup', {});
  const failed = jobs.failed(job.job_id, { message: 'disk full', code: 'STORAGE_FULL' });
  t.like(failed, { status: 'error' });
  t.like(jobs.get(job.job_id)?.error, { message: 'disk full', code: 'STORAGE_FULL' });
});

test('latest finds the newest job of a process and operation, or only an active one', (t) => {
  const { jobs } = store();
  const first = jobs.create('Radarr', 'symlink_repair', {});
  jobs.completed(first.job_id, {});
  t.is(jobs.latest('Radarr', 'symlink_repair', false)?.job_id, first.job_id);
  t.is(jobs.latest('Radarr', 'symlink_repair', true), null, 'none active');
  const second = jobs.create('Radarr', 'symlink_repair', {});
  t.is(jobs.latest('Radarr', 'symlink_repair', true)?.job_id, second.job_id);
  t.is(jobs.latest('Radarr', 'symlink_manifest_restore', false), null);
});

test('jobs a stop interrupted are marked failed at the next start', (t) => {
  const { jobs, reopen } = store();
  const queued = jobs.create('Radarr', 'symlink_repair', {});
  const running = jobs.create('Radarr', 'symlink_manifest_backup', {});
  jobs.started(running.job_id, {});
  const done = jobs.create('Radarr', 'symlink_manifest_restore', {});
  jobs.completed(done.job_id, {});
  const next = reopen();
  t.is(next.failInterrupted(), 2);
  t.is(next.get(queued.job_id)?.status, 'error');
  t.is(next.get(running.job_id)?.status, 'error');
  t.is(next.get(done.job_id)?.status, 'completed');
  t.is(next.failInterrupted(), 0);
});

test('normalizedName folds case and blanks', (t) => {
  t.is(normalizedName(' Radarr '), normalizedName('radarr'));
});
