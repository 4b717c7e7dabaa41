/**
 * Restore a manifest, and compare (preview) it, with one rule order (docs/original-product.md §2):
 * invalid entry → missing target (unless restore_broken) → an existing path: same link
 * unchanged, else kept (unless overwrite_existing), a real directory an error → created. A
 * restore writes each link atomically; a dry run and a compare write nothing.
 */
import { dirname, isAbsolute } from 'node:path';
import { readlink } from 'node:fs/promises';
import { isAllowed } from '../confinement.js';
import { linkTargetExists, pathKind, placeLink } from '../link-ops.js';
import type { ManifestContent } from './manifest-file.js';
import { CappedList } from '../result-list.js';

/** Restore and compare options. */
export interface RestoreOptions {
  readonly overwriteExisting: boolean;
  readonly restoreBroken: boolean;
}

type Decision =
  | { readonly kind: 'invalid' }
  | { readonly kind: 'missing_target'; readonly link_path: string; readonly target: string }
  | { readonly kind: 'unchanged'; readonly link_path: string; readonly target: string }
  | {
      readonly kind: 'existing';
      readonly link_path: string;
      readonly target: string;
      readonly current_target: string | null;
    }
  | {
      readonly kind: 'directory' | 'create' | 'overwrite';
      readonly link_path: string;
      readonly target: string;
      readonly current_target: string | null;
    };

/** The link and target of a well-formed entry (an absolute link path, no NUL), else null. */
function entryLink(entry: unknown): { linkPath: string; target: string } | null {
  const record = entry as { link_path?: unknown; target?: unknown } | null;
  const linkPath = typeof record?.link_path === 'string' ? record.link_path.trim() : '';
  const target = typeof record?.target === 'string' ? record.target.trim() : '';
  if (
    typeof entry !== 'object' ||
    entry === null ||
    linkPath === '' ||
    target === '' ||
    !isAbsolute(linkPath) ||
    linkPath.includes('\u0000') ||
    target.includes('\u0000')
  )
    return null;
  return { linkPath, target };
}

async function decide(entry: unknown, options: RestoreOptions): Promise<Decision> {
  const link = entryLink(entry);
  if (link === null) return { kind: 'invalid' };
  const { linkPath, target } = link;
  if (!options.restoreBroken && !(await linkTargetExists(linkPath, target)))
    return { kind: 'missing_target', link_path: linkPath, target };
  const kind = await pathKind(linkPath);
  if (kind === 'missing')
    return { kind: 'create', link_path: linkPath, target, current_target: null };
  const current = kind === 'link' ? await readlink(linkPath).catch(() => null) : null;
  if (current === target) return { kind: 'unchanged', link_path: linkPath, target };
  if (!options.overwriteExisting)
    return { kind: 'existing', link_path: linkPath, target, current_target: current };
  if (kind === 'dir')
    return { kind: 'directory', link_path: linkPath, target, current_target: null };
  return { kind: 'overwrite', link_path: linkPath, target, current_target: current };
}

type Counts = Record<'restored' | 'existing' | 'unchanged' | 'invalid' | 'missing', number>;

/** The counter a decision that writes nothing adds to; the others restore (or would). */
const SKIPPED: Partial<Record<Decision['kind'], keyof Counts>> = {
  invalid: 'invalid',
  missing_target: 'missing',
  unchanged: 'unchanged',
  existing: 'existing',
};

const noCounts = (): Counts => ({ restored: 0, existing: 0, unchanged: 0, invalid: 0, missing: 0 });

/** Restore progress. */
export interface RestoreProgress {
  readonly stage: 'processing' | 'completed';
  readonly processed_entries: number;
  readonly total_entries: number;
  readonly restored: number;
  readonly errors: number;
}

/** Carry out one entry's decision: count a skip, place the link (unless a dry run), or say why not. */
async function applyDecision(
  decision: Decision,
  options: { readonly dryRun: boolean; readonly allowed?: readonly string[] },
  counts: Counts,
  errors: CappedList<{ link_path: string; error: string }>,
): Promise<void> {
  const skipped = SKIPPED[decision.kind];
  if (skipped !== undefined) counts[skipped] += 1;
  else if (decision.kind === 'directory')
    errors.push({
      link_path: decision.link_path,
      error: 'Existing path is a real directory; cannot overwrite.',
    });
  else if (
    (decision.kind === 'create' || decision.kind === 'overwrite') &&
    !isAllowed(dirname(decision.link_path), options.allowed ?? [])
  )
    errors.push({
      link_path: decision.link_path,
      error: 'Outside stackd.symlinks.allowed_roots by its real path; not restored.',
    });
  else if (decision.kind === 'create' || decision.kind === 'overwrite')
    try {
      if (!options.dryRun) await placeLink(decision.link_path, decision.target);
      counts.restored += 1;
    } catch (error) {
      errors.push({
        link_path: decision.link_path,
        error: error instanceof Error ? error.message : String(error),
      });
    }
}

/** Restore the manifest's links. */
export async function runRestore(
  manifestPath: string,
  manifest: ManifestContent,
  options: RestoreOptions & {
    readonly dryRun: boolean;
    readonly maxListed: number;
    /** `stackd.symlinks.allowed_roots`: no link is placed in a folder outside them (real path). */
    readonly allowed?: readonly string[];
    readonly onProgress?: (progress: RestoreProgress) => void;
  },
) {
  const errors = new CappedList<{ link_path: string; error: string }>(options.maxListed);
  const counts = noCounts();
  const total = manifest.entries.length;
  for (const [index, entry] of manifest.entries.entries()) {
    await applyDecision(await decide(entry, options), options, counts, errors);
    if ((index + 1) % 2000 === 0 || index + 1 === total)
      options.onProgress?.({
        stage: 'processing',
        processed_entries: index + 1,
        total_entries: total,
        restored: counts.restored,
        errors: errors.total,
      });
  }
  options.onProgress?.({
    stage: 'completed',
    processed_entries: total,
    total_entries: total,
    restored: counts.restored,
    errors: errors.total,
  });
  return {
    manifest_path: manifestPath,
    manifest_created_at: manifest.created_at,
    dry_run: options.dryRun,
    overwrite_existing: options.overwriteExisting,
    restore_broken: options.restoreBroken,
    total_entries: total,
    restored: counts.restored,
    skipped_existing: counts.existing,
    skipped_unchanged: counts.unchanged,
    skipped_invalid_entries: counts.invalid,
    skipped_nonexistent_target: counts.missing,
    errors: errors.items,
    errors_truncated: errors.truncated,
  };
}

/** The result a restore answers. */
export type RestoreResult = Awaited<ReturnType<typeof runRestore>>;

/** One representative action of a compare. */
export interface SampleChange {
  readonly action:
    'create' | 'overwrite' | 'skip_existing' | 'skip_unchanged' | 'skip_missing_target';
  readonly link_path: string;
  readonly target: string;
  readonly current_target?: string | null;
}

const PREVIEW_ACTION: Record<Exclude<Decision['kind'], 'invalid'>, SampleChange['action']> = {
  missing_target: 'skip_missing_target',
  unchanged: 'skip_unchanged',
  existing: 'skip_existing',
  directory: 'overwrite',
  create: 'create',
  overwrite: 'overwrite',
};

/** Preview a restore: projected counts and the first `sampleLimit` actions. */
export async function compareManifest(
  manifestPath: string,
  manifest: ManifestContent,
  options: RestoreOptions & { readonly sampleLimit: number },
) {
  const counts = noCounts();
  const samples: SampleChange[] = [];
  for (const entry of manifest.entries) {
    const decision = await decide(entry, options);
    const skipped = SKIPPED[decision.kind];
    // A restore would refuse a real directory; the preview counts the overwrite it was asked for.
    counts[skipped ?? 'restored'] += 1;
    if (decision.kind === 'invalid' || samples.length >= options.sampleLimit) continue;
    const { link_path, target } = decision;
    samples.push({
      action: PREVIEW_ACTION[decision.kind],
      link_path,
      target,
      ...('current_target' in decision && decision.kind !== 'create'
        ? { current_target: decision.current_target }
        : {}),
    });
  }
  return {
    manifest_path: manifestPath,
    manifest_created_at: manifest.created_at,
    overwrite_existing: options.overwriteExisting,
    restore_broken: options.restoreBroken,
    sample_limit: options.sampleLimit,
    total_entries: manifest.entries.length,
    projected_restored: counts.restored,
    projected_skipped_existing: counts.existing,
    projected_skipped_unchanged: counts.unchanged,
    projected_skipped_invalid_entries: counts.invalid,
    projected_skipped_nonexistent_target: counts.missing,
    projected_errors: 0,
    sample_changes: samples,
    errors: [] as Array<{ link_path: string; error: string }>,
  };
}

/** The result a compare answers. */
export type CompareResult = Awaited<ReturnType<typeof compareManifest>>;
