/** The backup scheduler's status and reschedule, and the manifest pickers. */
import {
  BadRequestError,
  NotFoundError,
  defineRoute,
  findProcessEntry,
  listProcessEntries,
  type JsonRecord,
} from '../../../sdk/index.js';
import { backupSettings } from '../backup/backup-settings.js';
import type { BackupScheduler } from '../backup/backup-scheduler.js';
import { backupPattern, listFiles } from '../manifest/manifest-listing.js';
import type { SymlinkPaths } from '../paths.js';
import {
  BackupManifestsBody,
  BackupStatusBody,
  Errors,
  ManifestFilesBody,
  ManifestFilesQuery,
  ProcessNameBody,
  ProcessNameQuery,
  RescheduleBody,
} from '../schemas.js';
import { PROCESS_NOT_FOUND, SYMLINK_PROCESS_NAME_REQUIRED } from '../errors.js';

export function backupStatusRoute(scheduler: BackupScheduler) {
  return defineRoute({
    method: 'GET',
    path: '/process/symlink-backup-status',
    summary: 'The scheduled symlink backup state of a service',
    description:
      'Services take part when their block carries symlink_backup_* settings. null for an unknown service.',
    tags: ['symlinks'],
    capability: 'symlink_backup_schedule',
    schema: { query: ProcessNameQuery, response: BackupStatusBody },
    handler: ({ query }) => {
      const status = scheduler.status(query.process_name);
      return {
        process_name: status?.process_name ?? query.process_name,
        symlink_backup_status: status === null ? null : { ...status },
      };
    },
  });
}

export function rescheduleRoute(scheduler: BackupScheduler) {
  return defineRoute({
    method: 'POST',
    path: '/process/symlink-backup/reschedule',
    summary: "Rebuild a service's backup schedule from the current configuration",
    tags: ['symlinks'],
    capability: 'symlink_backup_schedule',
    schema: { body: ProcessNameBody, response: { 200: RescheduleBody, ...Errors.badRequest } },
    handler: ({ body }) => {
      if (body.process_name.trim() === '')
        throw new BadRequestError(SYMLINK_PROCESS_NAME_REQUIRED, 'process_name is required', {
          field: 'process_name',
        });
      return scheduler.reschedule(body.process_name);
    },
  });
}

export function backupManifestsRoute(paths: SymlinkPaths, document: () => JsonRecord) {
  return defineRoute({
    method: 'GET',
    path: '/process/symlink-backup-manifests',
    summary:
      'The scheduled backups of a service (files matching its template in the snapshot folder)',
    tags: ['symlinks'],
    capability: 'symlink_backup_manifest_list',
    schema: { query: ProcessNameQuery, response: { 200: BackupManifestsBody, ...Errors.notFound } },
    handler: async ({ query }) => {
      const entry = findProcessEntry(listProcessEntries(document()), query.process_name);
      if (entry === undefined)
        throw new NotFoundError(PROCESS_NOT_FOUND, 'Process not found', {
          field: 'process_name',
        });
      const { glob, regex } = backupPattern(
        backupSettings(entry.block).pathTemplate,
        entry.process_name,
      );
      const files = await listFiles(paths.snapshotDir, regex);
      return {
        process_name: entry.process_name,
        pattern: `${paths.snapshotDir}/${glob}`,
        manifests: files
          .slice(0, 200)
          .map(({ path, size_bytes, modified_at }) => ({ path, size_bytes, modified_at })),
        count: files.length,
      };
    },
  });
}

export function manifestFilesRoute(paths: SymlinkPaths) {
  return defineRoute({
    method: 'GET',
    path: '/process/symlink-manifest-files',
    summary: 'Files of the snapshot folder, for manifest pickers',
    description:
      'manifest_path (default the latest.json manifest) must stay within the snapshot folder (400 otherwise); the folder itself is listed.',
    tags: ['symlinks'],
    capability: 'symlink_manifest_file_list',
    schema: {
      query: ManifestFilesQuery,
      response: { 200: ManifestFilesBody, ...Errors.badRequest },
    },
    handler: async ({ query }) => {
      const manifestPath = paths.inSnapshots(query.manifest_path, 'manifest_path');
      const files = await listFiles(paths.snapshotDir);
      return {
        directory: paths.snapshotDir,
        manifest_path: manifestPath,
        files: files.slice(0, 500),
        count: files.length,
      };
    },
  });
}
