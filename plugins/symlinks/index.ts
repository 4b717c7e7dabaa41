/**
 * The symlinks plugin: repair (prefix rewrites, root migrations), manifest backup, restore and
 * compare, persisted background jobs, scheduled backups and the manifest pickers
 * (docs/decisions.md §18–19). Its folder is `<data-dir>/symlink-repair/`. Wiring only.
 */
import { definePlugin } from '../../sdk/index.js';
import { BackupScheduler } from './backup-scheduler.js';
import { SymlinksConfig, symlinksConfigOf } from './config.js';
import { isAllowed } from './confinement.js';
import { JOB_EVENT_KINDS } from './job-events.js';
import { JobRunner } from './job-runner.js';
import { JobStore } from './job-store.js';
import { SymlinkOperations } from './operations.js';
import { SymlinkPaths } from './paths.js';
import { jobLatestRoute, jobStatusRoute } from './routes/job-routes.js';
import {
  backupAsyncRoute,
  backupRoute,
  compareRoute,
  restoreAsyncRoute,
  restoreRoute,
} from './routes/manifest-routes.js';
import { repairAsyncRoute, repairRoute } from './routes/repair-routes.js';
import {
  backupManifestsRoute,
  backupStatusRoute,
  manifestFilesRoute,
  rescheduleRoute,
} from './routes/schedule-routes.js';

export default definePlugin({
  name: 'symlinks',
  storageFolder: 'symlink-repair',
  version: '1.0.0',
  apiVersion: 1,
  config: SymlinksConfig,
  capabilities: [
    'symlink_repair',
    'symlink_repair_async',
    'symlink_manifest_backup',
    'symlink_manifest_backup_async',
    'symlink_job_status',
    'symlink_job_latest',
    'symlink_manifest_restore',
    'symlink_manifest_restore_async',
    'symlink_manifest_compare',
    'symlink_backup_schedule',
    'symlink_backup_manifest_list',
    'symlink_manifest_file_list',
  ],
  register(ctx) {
    for (const kind of JOB_EVENT_KINDS) ctx.eventKind(kind);
    // Read from the document on every call: a POST /config change (allowed_roots above all)
    // applies to the next request, with no restart.
    const config = (): SymlinksConfig => symlinksConfigOf(ctx.stack.read(), ctx.config);
    const document = () => ctx.stack.read();
    // Manifests may also live in the symlink roots (called only once `ops` exists).
    const paths: SymlinkPaths = new SymlinkPaths(
      ctx.host.dataDir,
      ctx.storage.dir,
      (): string[] => {
        const { manifest_dirs: manifestDirs, allowed_roots: allowed } = config();
        // A symlink tree outside the allowed roots is no place for manifests either.
        return [...manifestDirs, ...ops.defaultRoots().filter((root) => isAllowed(root, allowed))];
      },
    );
    // The database opens on first use: at start, where interrupted jobs are marked.
    const jobs = new JobStore(() => ctx.storage.openDatabase('jobs.sqlite'));
    const jobCounter = ctx.exposition.counter<'operation' | 'outcome'>({
      name: 'stackd_symlink_jobs_total',
      help: 'Symlink jobs (repair, backup, restore) that ended, by operation and outcome',
      labelNames: ['operation', 'outcome'],
    });
    const brokenLinks = ctx.exposition.counter({
      name: 'stackd_symlink_broken_links_found_total',
      help: 'Symlinks whose target does not exist, as found by repair and backup jobs',
    });
    const runner = new JobRunner(
      jobs,
      ctx.tasks,
      ctx.events,
      ctx.logger,
      (operation, outcome, result) => {
        jobCounter.inc({ operation, outcome });
        brokenLinks.inc({}, brokenLinksIn(result));
      },
    );
    const ops: SymlinkOperations = new SymlinkOperations({ config, paths, document, jobs: runner });
    const scheduler = new BackupScheduler({
      document,
      manifestPath: (raw) => paths.manifest(raw, 'symlink_backup_path'),
      backup: (processName, path, settings) =>
        ops.backup({
          backup_path: path,
          roots: settings.roots,
          include_broken: settings.includeBroken,
          process_name: processName,
        }),
      logger: ctx.logger,
    });

    ctx.route(repairRoute(ops));
    ctx.route(repairAsyncRoute(ops));
    ctx.route(backupRoute(ops));
    ctx.route(backupAsyncRoute(ops));
    ctx.route(restoreRoute(ops));
    ctx.route(restoreAsyncRoute(ops));
    ctx.route(compareRoute(ops));
    ctx.route(jobStatusRoute(jobs));
    ctx.route(jobLatestRoute(jobs));
    ctx.route(backupStatusRoute(scheduler));
    ctx.route(rescheduleRoute(scheduler));
    ctx.route(backupManifestsRoute(paths, document));
    ctx.route(manifestFilesRoute(paths));

    const unsubscribe = ctx.stack.onChange(() => scheduler.rescheduleAll());
    ctx.onStart(() => {
      const interrupted = jobs.failInterrupted();
      if (interrupted > 0)
        ctx.logger.warn(
          `${interrupted} symlink job(s) were interrupted by the last stop; marked error`,
        );
      scheduler.rescheduleAll();
      ctx.tasks.every('symlink backup schedule', ctx.config.schedule_check_sec * 1000, () =>
        scheduler.tick(),
      );
    });
    ctx.onStop(async () => {
      unsubscribe();
      await runner.idle();
    });
  },
});

/** Broken links a job's result reports (repair: targets missing; backup: broken links skipped). */
function brokenLinksIn(result: unknown): number {
  if (typeof result !== 'object' || result === null) return 0;
  const counts = result as Record<string, unknown>;
  let total = 0;
  for (const key of ['skipped_nonexistent_target', 'skipped_broken']) {
    const value = counts[key];
    if (typeof value === 'number' && value > 0) total += value;
  }
  return total;
}
