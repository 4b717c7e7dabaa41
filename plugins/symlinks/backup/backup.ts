/**
 * Manifest backup (snapshot): every link of the roots with its target and whether the target
 * exists, streamed into the manifest file (atomic, see manifest-file.ts).
 */
import { ManifestWriter, manifestTimestamp } from '../manifest/manifest-file.js';
import { CappedList } from '../result-list.js';
import { walkLinks } from '../scan/scanner.js';

/** Progress of a running backup. */
export interface BackupProgress {
  readonly stage: 'collecting' | 'processing' | 'completed';
  readonly processed_symlinks: number;
  readonly total_symlinks: number;
  readonly recorded_entries: number;
  readonly errors: number;
}

/** What a backup needs. */
export interface BackupOptions {
  readonly manifestPath: string;
  readonly roots: readonly string[];
  readonly missingRoots: readonly string[];
  readonly includeBroken: boolean;
  readonly concurrency: number;
  readonly maxListed: number;
  /** Real paths of the allowed roots: no directory outside them is entered (empty: no bound). */
  readonly confines?: readonly string[];
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: BackupProgress) => void;
}

/** Write the snapshot manifest. */
export async function runBackup(options: BackupOptions) {
  const errors = new CappedList<{ link_path: string; error: string }>(options.maxListed);
  let scanned = 0;
  let recorded = 0;
  let skippedBroken = 0;
  let lastReport = 0;
  const report = (stage: BackupProgress['stage']): void =>
    options.onProgress?.({
      stage,
      processed_symlinks: scanned,
      total_symlinks: scanned,
      recorded_entries: recorded,
      errors: errors.total,
    });
  report('collecting');
  const writer = await ManifestWriter.open(options.manifestPath, {
    manifest_type: 'symlink_snapshot',
    created_at: manifestTimestamp(),
    roots: options.roots,
    include_broken: options.includeBroken,
    targets_checked: true,
  });
  try {
    await walkLinks(
      options.roots,
      async (batch) => {
        scanned += batch.length;
        for (const link of batch) {
          const targetIsThere = link.targetExists === true;
          if (!targetIsThere && !options.includeBroken) {
            skippedBroken += 1;
            continue;
          }
          await writer.add({
            link_path: link.path,
            target: link.target,
            target_exists: targetIsThere,
          });
          recorded += 1;
        }
        if (scanned - lastReport >= 2000) {
          lastReport = scanned;
          report('processing');
        }
      },
      {
        concurrency: options.concurrency,
        ...(options.confines === undefined ? {} : { confines: options.confines }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        onError: (failure) => errors.push({ link_path: failure.path, error: failure.error }),
        // The workers stat each link (following it, so a relative target is read from the
        // link's folder) on the scan's cores.
        checkTargets: true,
      },
    );
    await writer.commit();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  report('completed');
  return {
    backup_manifest: options.manifestPath,
    roots: [...options.roots],
    missing_roots: [...options.missingRoots],
    scanned_symlinks: scanned,
    recorded_entries: recorded,
    skipped_broken: skippedBroken,
    errors: errors.items,
    errors_truncated: errors.truncated,
  };
}

/** The result a backup answers. */
export type BackupResult = Awaited<ReturnType<typeof runBackup>>;
