/**
 * The symlinks plugin: repair (prefix rewrites, root migrations), manifest backup, restore and
 * compare, persisted background jobs, scheduled backups and the manifest pickers
 * (docs/decisions.md §18–19). Its folder is `<data-dir>/symlink-repair/`. Wiring only.
 */
import { definePlugin } from '../../sdk/index.js';
import { SymlinksConfig } from './config.js';
import { JOB_EVENT_KINDS } from './jobs/job-events.js';
import { jobLatestRoute, jobStatusRoute } from './routes/job-routes.js';
import {
  backupAsyncRoute,
  backupRoute,
  compareRoute,
  restoreAsyncRoute,
  restoreRoute,
} from './routes/manifest-routes.js';
import { repairAsyncRoute, repairRoute } from './routes/repair-routes.js';
import { SymlinksRuntime } from './symlinks-runtime.js';
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
    const runtime = new SymlinksRuntime(ctx);
    const { ops, jobs, scheduler, paths } = runtime;
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
    ctx.route(backupManifestsRoute(paths, () => runtime.document()));
    ctx.route(manifestFilesRoute(paths));

    ctx.onStart(() => runtime.start());
    ctx.onStop(() => runtime.stop());
  },
});
