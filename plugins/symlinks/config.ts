/**
 * The symlinks plugin's config slice (`stackd.symlinks`): the default trees, where manifests may
 * live besides `<data-dir>/symlink-repair/`, and how hard a scan may work.
 */
import {
  checkValue,
  isJsonRecord,
  listProcessEntries,
  Type,
  withDefaults,
  type JsonRecord,
  type Static,
} from '../../sdk/index.js';

/** The original product's default symlink trees (docs/original-product.md §1). */
export const REFERENCE_DEFAULT_ROOTS = [
  '/mnt/debrid/decypharr_symlinks',
  '/mnt/debrid/infinidysk-symlinks',
  '/mnt/debrid/combined_symlinks',
  '/mnt/debrid/clid_symlinks',
];

export const SymlinksConfig = Type.Object({
  default_roots: Type.Array(Type.String({ minLength: 1 }), {
    default: REFERENCE_DEFAULT_ROOTS,
    description:
      "Symlink trees used when a request names no roots. Every process block's " +
      '`symlink_backup_roots` and `symlink_library_path` are added.',
  }),
  allowed_roots: Type.Array(Type.String({ minLength: 1 }), {
    default: [],
    description:
      'When set, the only trees a repair, migration, backup or restore may touch, compared by ' +
      'real path (symlinks resolved): an explicit root or migration root outside all of them is ' +
      'refused (400 naming the field), a folder reached through a symlink out of them is not ' +
      'entered, and manifests may not be written in symlink trees outside them. A change ' +
      'through POST /config applies at once. Empty: any absolute directory.',
  }),
  manifest_dirs: Type.Array(Type.String({ minLength: 1 }), {
    default: [],
    description:
      'Absolute directories where manifests may be written and read besides ' +
      '`<data-dir>/symlink-repair/` (and the symlink roots themselves).',
  }),
  scan_concurrency: Type.Integer({
    minimum: 0,
    maximum: 16,
    default: 0,
    description:
      'Worker threads reading directories during a scan, at most (0: one per core, at most 4). ' +
      'A scan starts one and adds more while they wait on the disk (a cold cache, slow or ' +
      'network disks), where more help.',
  }),
  schedule_check_sec: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 60,
    description: 'How often scheduled backups are checked for being due.',
  }),
  max_listed_items: Type.Integer({
    minimum: 100,
    maximum: 1_000_000,
    default: 1_000,
    description:
      "Most items kept in a result's changes, moves and errors lists; the counters stay " +
      'exact and `*_truncated` says when a list was cut.',
  }),
});

/** The validated slice, defaults applied. */
export type SymlinksConfig = Static<typeof SymlinksConfig>;

/**
 * The slice as a document holds it now, defaults applied: what a `POST /config` saved applies to
 * the next request at once (`allowed_roots` above all). The store's validator keeps a saved slice
 * valid; an invalid one here falls back to `fallback` (the slice the host booted with).
 */
export function symlinksConfigOf(
  document: Readonly<JsonRecord>,
  fallback: SymlinksConfig,
): SymlinksConfig {
  const host = document.stackd;
  const stored = isJsonRecord(host) ? host.symlinks : undefined;
  const slice = withDefaults(SymlinksConfig, isJsonRecord(stored) ? stored : {});
  return checkValue(SymlinksConfig, slice).length === 0 ? (slice as SymlinksConfig) : fallback;
}

/** The configured trees: the slice's defaults plus every block's backup roots and library path. */
export function configuredRoots(config: SymlinksConfig, document: Readonly<JsonRecord>): string[] {
  const roots = [...config.default_roots];
  for (const entry of listProcessEntries(document)) {
    const { block } = entry;
    const backupRoots = block.symlink_backup_roots;
    if (Array.isArray(backupRoots)) roots.push(...backupRoots.map(String));
    if (typeof block.symlink_library_path === 'string') roots.push(block.symlink_library_path);
  }
  return [...new Set(roots.map((root) => root.trim()).filter((root) => root !== ''))];
}
