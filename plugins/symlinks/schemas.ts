/** Request and response schemas of the symlink routes. */
import { ErrorBody, Type, type Static } from '../../sdk/index.js';

const Path = Type.String({
  description: 'Absolute path (text; names that are not UTF-8 show U+FFFD)',
});

export const RewriteRule = Type.Object({
  from_prefix: Type.String({ description: 'Target prefix to replace (a trailing / is ignored)' }),
  to_prefix: Type.String({ description: 'Its replacement' }),
});
export const RootMigration = Type.Object({
  from_root: Type.String({ description: 'Absolute tree whose links move' }),
  to_root: Type.String({
    description: 'Absolute existing directory they move to (same relative paths)',
  }),
});

export const RepairBody = Type.Object({
  dry_run: Type.Boolean({
    default: true,
    description: 'true: report only; false: rewrite in place',
  }),
  include_broken: Type.Boolean({
    default: true,
    description: 'Also rewrite links whose current target is missing',
  }),
  presets: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Named rewrite presets (decypharr_beta_consolidated)',
    }),
  ),
  roots: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Absolute existing directories to scan; omitted: the default trees',
    }),
  ),
  root_migrations: Type.Optional(Type.Array(RootMigration)),
  overwrite_existing: Type.Boolean({
    default: false,
    description: 'A migration replaces an existing destination link',
  }),
  copy_instead_of_move: Type.Boolean({
    default: false,
    description: 'A migration creates destination links and keeps the sources',
  }),
  rewrite_rules: Type.Optional(Type.Array(RewriteRule)),
  backup_path: Type.Optional(
    Type.String({
      description:
        'Manifest written for a non-dry run that changed something: the changes, and entries of the old targets (restore it with overwrite_existing to undo)',
    }),
  ),
  process_name: Type.Optional(Type.String({ description: 'Who the run is for (job lookup)' })),
});
export type RepairBody = Static<typeof RepairBody>;

const Truncated = (what: string) =>
  Type.Boolean({
    description: `true when ${what} holds only the first stackd.symlinks.max_listed_items items (the counters stay exact)`,
  });

export const RepairResult = Type.Object({
  dry_run: Type.Boolean(),
  roots: Type.Array(Path),
  missing_roots: Type.Array(Path, { description: 'Default trees that do not exist here' }),
  root_migrations: Type.Array(RootMigration),
  missing_migration_roots: Type.Array(Path),
  scanned_symlinks: Type.Integer(),
  rules: Type.Array(RewriteRule, { description: "Preset rules first, then the request's" }),
  changed: Type.Integer({ description: 'Links rewritten (or that would be, on a dry run)' }),
  moved: Type.Integer(),
  copied: Type.Integer(),
  skipped_unchanged: Type.Integer(),
  skipped_nonexistent_target: Type.Integer(),
  skipped_existing_destination: Type.Integer(),
  errors: Type.Array(
    Type.Object({
      link_path: Type.Optional(Path),
      source_path: Type.Optional(Path),
      target_path: Type.Optional(Path),
      error: Type.String(),
    }),
    { description: 'Rewrite errors carry link_path; migration errors source_path and target_path' },
  ),
  changes: Type.Array(
    Type.Object({
      link_path: Path,
      old_target: Type.String(),
      new_target: Type.String(),
      matched_rule: RewriteRule,
    }),
  ),
  moves: Type.Array(
    Type.Object({
      from_root: Path,
      to_root: Path,
      source_path: Path,
      target_path: Path,
      operation: Type.Union([Type.Literal('move'), Type.Literal('copy')]),
    }),
  ),
  errors_truncated: Truncated('errors'),
  changes_truncated: Truncated('changes'),
  moves_truncated: Truncated('moves'),
  backup_manifest: Type.Union([Path, Type.Null()], {
    description: 'The manifest written, else null',
  }),
});

export const JobAck = Type.Object({
  status: Type.Literal('queued'),
  job_id: Type.String(),
  operation: Type.Union([
    Type.Literal('symlink_repair'),
    Type.Literal('symlink_manifest_backup'),
    Type.Literal('symlink_manifest_restore'),
  ]),
});

export const Job = Type.Object({
  job_id: Type.String(),
  process_name: Type.String(),
  operation: Type.String(),
  status: Type.Union([
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('completed'),
    Type.Literal('error'),
  ]),
  created_at: Type.Integer({ description: 'Epoch seconds' }),
  updated_at: Type.Integer(),
  started_at: Type.Optional(Type.Integer()),
  finished_at: Type.Optional(Type.Integer()),
  metadata: Type.Record(Type.String(), Type.Unknown(), { description: 'The request, echoed' }),
  progress: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description: 'stage (collecting, processing, completed) and counts, updated every 2000 items',
    }),
  ),
  result: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
    description: "The synchronous route's answer, once completed",
  }),
  error: Type.Union([
    Type.Object({
      message: Type.String(),
      code: Type.Optional(
        Type.String({
          description: 'STORAGE_FULL, STORAGE_UNWRITABLE or STORAGE_IO_ERROR when the disk refused',
        }),
      ),
    }),
    Type.Null(),
  ]),
});

export const JobStatusQuery = Type.Object({ job_id: Type.String({ minLength: 1 }) });
export const JobLatestQuery = Type.Object({
  process_name: Type.String({ minLength: 1 }),
  operation: Type.String({
    default: 'symlink_manifest_backup',
    description: 'Blank: any operation',
  }),
  active_only: Type.Boolean({ default: true }),
});
export const JobLatestBody = Type.Object({ job: Type.Union([Job, Type.Null()]) });

export const BackupBody = Type.Object({
  backup_path: Type.String({
    minLength: 1,
    description:
      'Manifest to write (/config/symlink-repair/... maps to <data-dir>/symlink-repair/...)',
  }),
  roots: Type.Optional(Type.Array(Type.String())),
  include_broken: Type.Boolean({ default: true }),
  process_name: Type.Optional(Type.String()),
});
export const BackupResult = Type.Object({
  backup_manifest: Path,
  roots: Type.Array(Path),
  missing_roots: Type.Array(Path),
  scanned_symlinks: Type.Integer(),
  recorded_entries: Type.Integer(),
  skipped_broken: Type.Integer(),
  errors: Type.Array(Type.Object({ link_path: Path, error: Type.String() })),
  errors_truncated: Truncated('errors'),
});

export const RestoreBody = Type.Object({
  manifest_path: Type.String({ minLength: 1 }),
  dry_run: Type.Boolean({ default: true }),
  overwrite_existing: Type.Boolean({ default: false }),
  restore_broken: Type.Boolean({ default: true }),
  process_name: Type.Optional(Type.String()),
});
export const RestoreResult = Type.Object({
  manifest_path: Path,
  manifest_created_at: Type.Union([Type.String(), Type.Null()]),
  dry_run: Type.Boolean(),
  overwrite_existing: Type.Boolean(),
  restore_broken: Type.Boolean(),
  total_entries: Type.Integer(),
  restored: Type.Integer(),
  skipped_existing: Type.Integer(),
  skipped_unchanged: Type.Integer(),
  skipped_invalid_entries: Type.Integer(),
  skipped_nonexistent_target: Type.Integer(),
  errors: Type.Array(Type.Object({ link_path: Path, error: Type.String() })),
  errors_truncated: Truncated('errors'),
});

export const CompareQuery = Type.Object({
  manifest_path: Type.String({ minLength: 1 }),
  overwrite_existing: Type.Boolean({ default: false }),
  restore_broken: Type.Boolean({ default: true }),
  sample_limit: Type.Integer({ minimum: 0, maximum: 200, default: 50 }),
});
export const CompareResult = Type.Object({
  manifest_path: Path,
  manifest_created_at: Type.Union([Type.String(), Type.Null()]),
  overwrite_existing: Type.Boolean(),
  restore_broken: Type.Boolean(),
  sample_limit: Type.Integer(),
  total_entries: Type.Integer(),
  projected_restored: Type.Integer(),
  projected_skipped_existing: Type.Integer(),
  projected_skipped_unchanged: Type.Integer(),
  projected_skipped_invalid_entries: Type.Integer(),
  projected_skipped_nonexistent_target: Type.Integer(),
  projected_errors: Type.Integer(),
  sample_changes: Type.Array(
    Type.Object({
      action: Type.Union([
        Type.Literal('create'),
        Type.Literal('overwrite'),
        Type.Literal('skip_existing'),
        Type.Literal('skip_unchanged'),
        Type.Literal('skip_missing_target'),
      ]),
      link_path: Path,
      target: Type.String(),
      current_target: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    }),
    { description: 'The first sample_limit actions, in manifest order' },
  ),
  errors: Type.Array(Type.Object({ link_path: Path, error: Type.String() })),
});

export const ProcessNameQuery = Type.Object({ process_name: Type.String({ minLength: 1 }) });
export const ProcessNameBody = Type.Object({ process_name: Type.String() });
export const BackupStatusBody = Type.Object({
  process_name: Type.String(),
  symlink_backup_status: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
    description:
      'status (scheduled, completed, error, disabled, unsupported), message, the settings, next_backup_at and, after a run, last_backup_at, last_backup_manifest and counts',
  }),
});
export const RescheduleBody = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
  message: Type.String(),
});
const ListedFile = Type.Object({
  path: Path,
  size_bytes: Type.Integer(),
  modified_at: Type.Integer({ description: 'Epoch seconds' }),
});
export const BackupManifestsBody = Type.Object({
  process_name: Type.String(),
  pattern: Type.String({
    description: "The glob of this service's backup files in the snapshot folder",
  }),
  manifests: Type.Array(ListedFile, { description: 'Newest first, at most 200' }),
  count: Type.Integer({ description: 'Matches before the cap' }),
});
export const ManifestFilesQuery = Type.Object({ manifest_path: Type.Optional(Type.String()) });
export const ManifestFilesBody = Type.Object({
  directory: Path,
  manifest_path: Path,
  files: Type.Array(Type.Object({ ...ListedFile.properties, name: Type.String() }), {
    description: 'Newest first, at most 500',
  }),
  count: Type.Integer(),
});

/** The error answers the routes declare. */
export const Errors = {
  badRequest: { 400: ErrorBody },
  notFound: { 404: ErrorBody },
  /** The disk refused a write (full: 507; read-only or unwritable: 503). */
  storage: { 503: ErrorBody, 507: ErrorBody },
};
