/**
 * Run a checked repair plan: prefix rewrites over the roots, then root migrations. Links are
 * handled a directory batch at a time (their checks and renames in parallel), every change is
 * atomic, and a dry run touches nothing. A non-dry run that changed something writes the backup
 * manifest when asked: the changes, plus an `entries` list of the old targets, so restoring it
 * with overwrite undoes the repair.
 */
import { ManifestWriter, manifestTimestamp } from '../manifest/manifest-file.js';
import { rewritePrefixes } from './prefix-rewrite.js';
import type { RepairPlan, RepairRequest } from './repair-plan.js';
import { RepairTally, type RepairProgress, type UndoEntry } from './repair-tally.js';
import { migrateRoots } from './root-migration.js';

export type { LinkChange, LinkMove, RepairError, RepairProgress } from './repair-tally.js';

/** What a repair needs besides its plan. */
export interface RepairRunOptions {
  readonly concurrency: number;
  readonly maxListed: number;
  /** The confined path of the backup manifest (null: none asked). */
  readonly backupPath: string | null;
  /** Real paths of the allowed roots: nothing outside them is entered or written (empty: no bound). */
  readonly confines?: readonly string[];
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: RepairProgress) => void;
}

/** Run the plan. */
export async function runRepair(
  request: RepairRequest,
  plan: RepairPlan,
  options: RepairRunOptions,
) {
  const keepUndo = !request.dry_run && options.backupPath !== null;
  const tally = new RepairTally(options.maxListed, keepUndo, options.onProgress);
  tally.report('collecting');
  await rewritePrefixes(request, plan, options, tally);
  const missingMigrationRoots = await migrateRoots(request, plan.migrations, options, tally);
  const backupManifest =
    keepUndo && tally.undo.length > 0 && options.backupPath !== null
      ? await writeUndoManifest(options.backupPath, plan, tally.undo)
      : null;
  tally.report('completed');
  const { counts, changes, moves, errors } = tally;
  return {
    dry_run: request.dry_run,
    roots: plan.roots,
    missing_roots: plan.missingRoots,
    root_migrations: plan.migrations,
    missing_migration_roots: missingMigrationRoots,
    scanned_symlinks: counts.scanned,
    rules: plan.rules,
    changed: changes.total,
    moved: counts.moved,
    copied: counts.copied,
    skipped_unchanged: counts.unchanged,
    skipped_nonexistent_target: counts.nonexistent,
    skipped_existing_destination: counts.existingDestination,
    errors: errors.items,
    changes: changes.items,
    moves: moves.items,
    errors_truncated: errors.truncated,
    changes_truncated: changes.truncated,
    moves_truncated: moves.truncated,
    backup_manifest: backupManifest,
  };
}

/** The backup manifest of a repair: restoring it with overwrite undoes the repair. */
async function writeUndoManifest(
  path: string,
  plan: RepairPlan,
  undo: readonly UndoEntry[],
): Promise<string> {
  const writer = await ManifestWriter.open(path, {
    manifest_type: 'symlink_repair_backup',
    created_at: manifestTimestamp(),
    roots: plan.roots,
    changes: undo.map((item) => item.change),
  });
  try {
    for (const item of undo) await writer.add({ link_path: item.link_path, target: item.target });
    await writer.commit();
    return path;
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** The result a repair answers. */
export type RepairResult = Awaited<ReturnType<typeof runRepair>>;
