/** Manifest backup, restore and compare, with the background twins. */
import { defineRoute } from '../../../sdk/index.js';
import type { SymlinkOperations } from '../operations.js';
import {
  BackupBody,
  BackupResult,
  CompareQuery,
  CompareResult,
  Errors,
  JobAck,
  RestoreBody,
  RestoreResult,
} from '../schemas.js';

const PATHS =
  'Paths stay within the data dir (`/config/symlink-repair/...` maps to `<data-dir>/symlink-repair/...`; a relative path is taken under its `snapshots/`), `stackd.symlinks.manifest_dirs` or a symlink root: 400 naming the field otherwise.';

export function backupRoute(operations: SymlinkOperations) {
  return defineRoute({
    method: 'POST',
    path: '/process/symlink-manifest/backup',
    summary: 'Write a manifest of every symlink (link_path, target, target_exists)',
    description: `${PATHS} The manifest is streamed to a temp file and renamed into place (atomic).`,
    tags: ['symlinks'],
    capability: 'symlink_manifest_backup',
    schema: {
      body: BackupBody,
      response: { 200: BackupResult, ...Errors.badRequest, ...Errors.storage },
    },
    handler: ({ body, signal }) => operations.backup(body, signal),
  });
}

export function backupAsyncRoute(operations: SymlinkOperations) {
  return defineRoute({
    method: 'POST',
    path: '/process/symlink-manifest/backup-async',
    summary: 'Queue a manifest backup as a background job',
    description: PATHS,
    tags: ['symlinks'],
    capability: 'symlink_manifest_backup_async',
    schema: {
      body: BackupBody,
      response: { 200: JobAck, ...Errors.badRequest, ...Errors.storage },
    },
    handler: ({ body }) => operations.backupAsync(body),
  });
}

const RESTORE_RULES =
  'Per entry, in order: invalid (skipped_invalid_entries); target missing and restore_broken false (skipped_nonexistent_target); the path exists: the same link (skipped_unchanged), else kept unless overwrite_existing (skipped_existing), a real directory is an error; otherwise the link is created atomically (restored; counted on a dry run too).';

export function restoreRoute(operations: SymlinkOperations) {
  return defineRoute({
    method: 'POST',
    path: '/process/symlink-manifest/restore',
    summary: 'Restore the links of a manifest (preview with dry_run)',
    description: `${RESTORE_RULES} ${PATHS} A missing manifest is 404, one without an entries list 400.`,
    tags: ['symlinks'],
    capability: 'symlink_manifest_restore',
    schema: {
      body: RestoreBody,
      response: { 200: RestoreResult, ...Errors.badRequest, ...Errors.notFound },
    },
    handler: ({ body }) => operations.restore(body),
  });
}

export function restoreAsyncRoute(operations: SymlinkOperations) {
  return defineRoute({
    method: 'POST',
    path: '/process/symlink-manifest/restore-async',
    summary: 'Queue a manifest restore as a background job (operation symlink_manifest_restore)',
    description: `${RESTORE_RULES} ${PATHS}`,
    tags: ['symlinks'],
    capability: 'symlink_manifest_restore_async',
    schema: {
      body: RestoreBody,
      response: { 200: JobAck, ...Errors.badRequest, ...Errors.storage },
    },
    handler: ({ body }) => operations.restoreAsync(body),
  });
}

export function compareRoute(operations: SymlinkOperations) {
  return defineRoute({
    method: 'GET',
    path: '/process/symlink-manifest/compare',
    summary: 'Preview a restore: projected counts and sample actions',
    description: `The restore rules without writing; an existing real directory with overwrite_existing counts as an overwrite. sample_limit 0–200 (default 50). ${PATHS}`,
    tags: ['symlinks'],
    capability: 'symlink_manifest_compare',
    schema: {
      query: CompareQuery,
      response: { 200: CompareResult, ...Errors.badRequest, ...Errors.notFound },
    },
    handler: ({ query }) => operations.compare(query),
  });
}
