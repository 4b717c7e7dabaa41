/** POST /process/symlink-repair and its background twin. */
import { defineRoute } from '../../../sdk/index.js';
import type { SymlinkOperations } from '../operations.js';
import { Errors, JobAck, RepairBody, RepairResult } from '../schemas.js';

const RULES = [
  'At least one of presets, rewrite_rules, root_migrations (400 otherwise; an unknown preset is',
  '400 naming it). Explicit roots must be absolute existing directories (400 naming the field); a',
  'migration to_root that does not exist yet is created with its parents. With',
  'stackd.symlinks.allowed_roots set, every root, migration root and folder entered must lie in',
  'them by its real path (400 SYMLINK_ROOT_NOT_ALLOWED naming the field). Omitted roots use the',
  'default trees (missing ones, and those outside the allowed roots, are listed in missing_roots). dry_run (default true) changes nothing. Every rewrite is atomic: the new link',
  'is created beside the old and renamed over it, so a crash never leaves a link missing, and a',
  'repair applied twice changes nothing the second time. Directory links are reported, never',
  'followed. backup_path is written only for a non-dry run that changed something.',
].join('\n');

export function repairRoute(operations: SymlinkOperations) {
  return defineRoute({
    method: 'POST',
    path: '/process/symlink-repair',
    summary: 'Rewrite or migrate symlinks (preview with dry_run)',
    description: RULES,
    tags: ['symlinks'],
    capability: 'symlink_repair',
    schema: {
      body: RepairBody,
      response: { 200: RepairResult, ...Errors.badRequest, ...Errors.storage },
    },
    handler: ({ body, signal }) => operations.repair(body, signal),
  });
}

export function repairAsyncRoute(operations: SymlinkOperations) {
  return defineRoute({
    method: 'POST',
    path: '/process/symlink-repair-async',
    summary: 'Queue a symlink repair as a background job',
    description: `${RULES}\n\nThe request is checked at once (400 as above); the job then runs in the background (GET /process/symlink-job-status).`,
    tags: ['symlinks'],
    capability: 'symlink_repair_async',
    schema: {
      body: RepairBody,
      response: { 200: JobAck, ...Errors.badRequest, ...Errors.storage },
    },
    handler: ({ body }) => operations.repairAsync(body),
  });
}
