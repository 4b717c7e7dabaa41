/**
 * The second half of a repair: the links under each migration's `from_root` move (or are copied)
 * to the same place under `to_root`. An existing destination is skipped unless overwriting is
 * asked, and nothing is written outside the allowed roots; a dry run only plans.
 */
import { mkdir } from 'node:fs/promises';
import { destinationAllowed } from '../confinement.js';
import { moveLink, pathKind, replaceLink } from '../link-ops.js';
import { walkLinks, type FoundLink } from '../scan/scanner.js';
import type { RepairRequest, RootMigration } from './repair-plan.js';
import { failureText, type LinkMove, type RepairTally } from './repair-tally.js';
import type { RewriteOptions } from './prefix-rewrite.js';

/** Migrate (or plan) every root; returns the source roots that are not directories. */
export async function migrateRoots(
  request: RepairRequest,
  migrations: readonly RootMigration[],
  options: RewriteOptions,
  tally: RepairTally,
): Promise<string[]> {
  const missingRoots: string[] = [];
  for (const migration of migrations) {
    if ((await pathKind(migration.from_root)) !== 'dir') {
      missingRoots.push(migration.from_root);
      continue;
    }
    const fromBytes = Buffer.from(migration.from_root);
    // A destination folder that is not there yet is made, parents too (checked against the
    // allowed roots when the request was planned); a dry run only plans.
    if (!request.dry_run) await mkdir(migration.to_root, { recursive: true });
    await walkLinks(
      [migration.from_root],
      async (batch) => {
        tally.counts.scanned += batch.length;
        for (const link of batch) {
          const rest = link.pathBytes.subarray(fromBytes.length);
          const destination = Buffer.concat([Buffer.from(migration.to_root), rest]);
          await migrateLink(link, destination, migration, request, options, tally);
        }
      },
      {
        concurrency: options.concurrency,
        ...(options.confines === undefined ? {} : { confines: options.confines }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        onError: (failure) => tally.errors.push({ link_path: failure.path, error: failure.error }),
      },
    );
  }
  return missingRoots;
}

async function migrateLink(
  link: FoundLink,
  destination: Buffer,
  migration: RootMigration,
  request: RepairRequest,
  options: RewriteOptions,
  tally: RepairTally,
): Promise<void> {
  const operation = request.copy_instead_of_move ? 'copy' : 'move';
  const move: LinkMove = {
    from_root: migration.from_root,
    to_root: migration.to_root,
    source_path: link.path,
    target_path: destination.toString('utf8'),
    operation,
  };
  const refuse = (error: string): void => {
    tally.errors.push({ source_path: move.source_path, target_path: move.target_path, error });
  };
  const existing = await pathKind(destination);
  if (existing !== 'missing' && !request.overwrite_existing) {
    tally.counts.existingDestination += 1;
    return;
  }
  if (!destinationAllowed(destination, migration.to_root, options.confines))
    return refuse('Destination folder is outside stackd.symlinks.allowed_roots by its real path.');
  if (existing === 'dir') return refuse('Destination exists as a real directory.');
  try {
    if (!request.dry_run) {
      if (operation === 'copy')
        await replaceLink(await ensureParent(destination), link.targetBytes);
      else await moveLink(link.pathBytes, destination.toString('utf8'));
    }
    tally.recordMove(move, link.target);
  } catch (error) {
    refuse(failureText(error));
  }
}

/** Make the parent of a path and give the path back (for a copy's new link). */
async function ensureParent(path: Buffer): Promise<Buffer> {
  const slash = path.lastIndexOf(0x2f);
  if (slash > 0) await mkdir(path.subarray(0, slash), { recursive: true });
  return path;
}
