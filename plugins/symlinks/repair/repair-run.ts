/**
 * Run a checked repair plan: prefix rewrites over the roots, then root migrations. Links are
 * handled a directory batch at a time (their checks and renames in parallel), every change is
 * atomic, and a dry run touches nothing. A non-dry run that changed something writes the backup
 * manifest when asked: the changes, plus an `entries` list of the old targets, so restoring it
 * with overwrite undoes the repair.
 */
import { mkdir, rm } from 'node:fs/promises';
import { destinationAllowed } from '../confinement.js';
import type { RewriteRule } from './presets.js';
import { isRelinkLeftover, moveLink, pathKind, RELINK_LEFTOVER, replaceLink } from '../link-ops.js';
import { ManifestWriter, manifestTimestamp } from '../manifest/manifest-file.js';
import type { RepairPlan, RepairRequest } from './repair-plan.js';
import { CappedList } from '../result-list.js';
import { walkLinks, type FoundLink } from '../scan/scanner.js';

/** A rewrite made (or planned on a dry run). */
export interface LinkChange {
  readonly link_path: string;
  readonly old_target: string;
  readonly new_target: string;
  readonly matched_rule: RewriteRule;
}

/** A migration made (or planned). */
export interface LinkMove {
  readonly from_root: string;
  readonly to_root: string;
  readonly source_path: string;
  readonly target_path: string;
  readonly operation: 'move' | 'copy';
}

/** A link that could not be handled. */
export interface RepairError {
  readonly link_path?: string;
  readonly source_path?: string;
  readonly target_path?: string;
  readonly error: string;
}

/** Progress of a running repair (the job's `progress`). */
export interface RepairProgress {
  readonly stage: 'collecting' | 'processing' | 'completed';
  readonly processed_items: number;
  readonly total_items: number;
  readonly changed: number;
  readonly moved: number;
  readonly copied: number;
  readonly errors: number;
}

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

function message(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const text = error instanceof Error ? error.message : String(error);
  return code === 'EXDEV'
    ? 'Destination is on another file system; a link cannot be moved there.'
    : text;
}

/** A rule that matched, and the target it gives. */
export interface RewriteMatch {
  readonly rule: RewriteRule;
  readonly target: string;
}

/** The first rule matching a target, and the rewritten target. */
export function rewriteTarget(target: string, rules: readonly RewriteRule[]): RewriteMatch | null {
  for (const rule of rules) {
    const from = rule.from_prefix;
    if (target === from || target.startsWith(from.endsWith('/') ? from : `${from}/`)) {
      // Already under `to` when `to` lies under `from`: applying again must change nothing.
      const to = rule.to_prefix;
      if (to.startsWith(`${from}/`) && (target === to || target.startsWith(`${to}/`))) return null;
      return { rule, target: `${to}${target.slice(from.length)}` };
    }
  }
  return null;
}

/** Run the plan. */
export async function runRepair(
  request: RepairRequest,
  plan: RepairPlan,
  options: RepairRunOptions,
) {
  const changes = new CappedList<LinkChange>(options.maxListed);
  const moves = new CappedList<LinkMove>(options.maxListed);
  const errors = new CappedList<RepairError>(options.maxListed);
  const undo: Array<{ link_path: string; target: string; change: Record<string, unknown> }> = [];
  const counts = {
    scanned: 0,
    unchanged: 0,
    nonexistent: 0,
    existingDestination: 0,
    moved: 0,
    copied: 0,
  };
  const report = (stage: RepairProgress['stage']): void =>
    options.onProgress?.({
      stage,
      processed_items: counts.scanned,
      total_items: counts.scanned,
      changed: changes.total,
      moved: counts.moved,
      copied: counts.copied,
      errors: errors.total,
    });
  let lastReport = 0;
  const keepUndo = !request.dry_run && options.backupPath !== null;

  const record = (link: FoundLink, next: RewriteMatch): void => {
    changes.push({
      link_path: link.path,
      old_target: link.target,
      new_target: next.target,
      matched_rule: next.rule,
    });
    if (keepUndo)
      undo.push({
        link_path: link.path,
        target: link.target,
        change: { link_path: link.path, old_target: link.target, new_target: next.target },
      });
  };
  const apply = (link: FoundLink, next: RewriteMatch): Promise<void> | undefined => {
    if (request.dry_run) {
      record(link, next);
      return undefined;
    }
    return replaceLink(link.pathBytes, next.target).then(
      () => record(link, next),
      (error: unknown) => {
        errors.push({ link_path: link.path, error: message(error) });
      },
    );
  };
  // A link that needs no file system call (a dry run, or nothing to change) is settled without a
  // promise: most links of a large tree are.
  const rewriteOne = (link: FoundLink): Promise<void> | undefined => {
    if (isRelinkLeftover(link.path)) {
      // The new link of a rewrite a crash cut off before its rename: the old one is intact.
      return request.dry_run
        ? undefined
        : rm(link.pathBytes, { force: true }).catch(() => undefined);
    }
    const next = rewriteTarget(link.target, plan.rules);
    if (next === null || next.target === link.target) {
      counts.unchanged += 1;
      return undefined;
    }
    if (!link.targetIsUtf8) {
      errors.push({ link_path: link.path, error: 'Target is not valid UTF-8; left unchanged.' });
      return undefined;
    }
    // The scan checked every target unless broken links are wanted anyway (checkTargets below).
    if (!request.include_broken && link.targetExists !== true) {
      counts.nonexistent += 1;
      return undefined;
    }
    return apply(link, next);
  };

  report('collecting');
  if (plan.rules.length > 0)
    await walkLinks(
      plan.roots,
      async (batch, passedOver) => {
        counts.scanned += batch.length + passedOver;
        counts.unchanged += passedOver;
        const pending: Array<Promise<void>> = [];
        for (const link of batch) {
          const work = rewriteOne(link);
          if (work !== undefined) pending.push(work);
        }
        if (pending.length > 0) await Promise.all(pending);
        if (counts.scanned - lastReport >= 2000) {
          lastReport = counts.scanned;
          report('processing');
        }
      },
      {
        concurrency: options.concurrency,
        ...(options.confines === undefined ? {} : { confines: options.confines }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        onError: (failure) => errors.push({ link_path: failure.path, error: failure.error }),
        // Only links a rule can match (or crash leftovers) reach this thread, their targets
        // already checked by the workers.
        targetFilter: {
          targetPrefixes: plan.rules.map((rule) => rule.from_prefix),
          keepPath: RELINK_LEFTOVER,
        },
        checkTargets: !request.include_broken,
      },
    );

  const missingMigrationRoots: string[] = [];
  for (const migration of plan.migrations) {
    if ((await pathKind(migration.from_root)) !== 'dir') {
      missingMigrationRoots.push(migration.from_root);
      continue;
    }
    const fromBytes = Buffer.from(migration.from_root);
    const operation = request.copy_instead_of_move ? 'copy' : 'move';
    // A destination folder that is not there yet is made, parents too (checked against the
    // allowed roots when the request was planned); a dry run only plans.
    if (!request.dry_run) await mkdir(migration.to_root, { recursive: true });
    await walkLinks(
      [migration.from_root],
      async (batch) => {
        counts.scanned += batch.length;
        for (const link of batch) {
          const rest = link.pathBytes.subarray(fromBytes.length);
          const destination = Buffer.concat([Buffer.from(migration.to_root), rest]);
          const move: LinkMove = {
            from_root: migration.from_root,
            to_root: migration.to_root,
            source_path: link.path,
            target_path: destination.toString('utf8'),
            operation,
          };
          const existing = await pathKind(destination);
          if (existing !== 'missing' && !request.overwrite_existing) {
            counts.existingDestination += 1;
            continue;
          }
          if (!destinationAllowed(destination, migration.to_root, options.confines)) {
            errors.push({
              source_path: move.source_path,
              target_path: move.target_path,
              error:
                'Destination folder is outside stackd.symlinks.allowed_roots by its real path.',
            });
            continue;
          }
          if (existing === 'dir') {
            errors.push({
              source_path: move.source_path,
              target_path: move.target_path,
              error: 'Destination exists as a real directory.',
            });
            continue;
          }
          try {
            if (!request.dry_run) {
              if (operation === 'copy')
                await replaceLink(await ensureParent(destination), link.targetBytes);
              else await moveLink(link.pathBytes, destination.toString('utf8'));
            }
            moves.push(move);
            if (operation === 'copy') counts.copied += 1;
            else counts.moved += 1;
            if (keepUndo)
              undo.push({
                link_path: move.target_path,
                target: link.target,
                change: {
                  source_path: move.source_path,
                  target_path: move.target_path,
                  old_target: link.target,
                  operation,
                },
              });
          } catch (error) {
            errors.push({
              source_path: move.source_path,
              target_path: move.target_path,
              error: message(error),
            });
          }
        }
      },
      {
        concurrency: options.concurrency,
        ...(options.confines === undefined ? {} : { confines: options.confines }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        onError: (failure) => errors.push({ link_path: failure.path, error: failure.error }),
      },
    );
  }

  let backupManifest: string | null = null;
  if (keepUndo && undo.length > 0 && options.backupPath !== null) {
    const writer = await ManifestWriter.open(options.backupPath, {
      manifest_type: 'symlink_repair_backup',
      created_at: manifestTimestamp(),
      roots: plan.roots,
      changes: undo.map((item) => item.change),
    });
    try {
      for (const item of undo) await writer.add({ link_path: item.link_path, target: item.target });
      await writer.commit();
      backupManifest = options.backupPath;
    } catch (error) {
      await writer.abort();
      throw error;
    }
  }
  report('completed');
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

/** Make the parent of a path and give the path back (for a copy's new link). */
async function ensureParent(path: Buffer): Promise<Buffer> {
  const slash = path.lastIndexOf(0x2f);
  if (slash > 0) await mkdir(path.subarray(0, slash), { recursive: true });
  return path;
}

/** The result a repair answers. */
export type RepairResult = Awaited<ReturnType<typeof runRepair>>;
