/**
 * The symlinks plugin's config slice (`stackd.symlinks`): the default trees, where manifests may
 * live besides `<data-dir>/symlink-repair/`, and how hard a scan may work.
 */
import { Type, type Static } from '../../sdk/index.js';

/** The reference's default symlink trees (dumb-features §2.1). */
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
      'When set, the only trees a repair, migration or backup may touch: an explicit root or ' +
      'migration root outside all of them is refused (400 naming the field). Empty: any ' +
      'absolute directory.',
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
      'Worker threads reading directories during a scan (0: one per core, at most 4). More ' +
      'helps trees on slow or network disks.',
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
