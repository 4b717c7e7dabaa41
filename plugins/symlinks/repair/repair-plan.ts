/**
 * A repair request checked and made concrete before anything runs: rules (presets first, then
 * the request's, blanks dropped), migrations, roots (explicit ones must be absolute existing
 * directories; the defaults may be missing and are reported), each refusal a 400 naming the
 * field.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { BadRequestError } from '../../../sdk/index.js';
import { checkAllowed, hasParentSegment, isAllowed } from '../confinement.js';
import { PRESETS, presetRules, type RewriteRule } from './presets.js';
import { SYMLINK_NO_RULES, SYMLINK_PRESET_UNKNOWN, SYMLINK_ROOT_INVALID } from '../errors.js';

/** One root migration. */
export interface RootMigration {
  readonly from_root: string;
  readonly to_root: string;
}

/** The repair request (the body of POST /symlinks/repair). */
export interface RepairRequest {
  readonly dry_run: boolean;
  readonly include_broken: boolean;
  readonly presets?: readonly string[];
  readonly roots?: readonly string[];
  readonly root_migrations?: readonly RootMigration[];
  readonly overwrite_existing: boolean;
  readonly copy_instead_of_move: boolean;
  readonly rewrite_rules?: readonly RewriteRule[];
  readonly backup_path?: string;
  readonly process_name?: string;
}

/** What a repair will do. */
export interface RepairPlan {
  readonly rules: RewriteRule[];
  readonly migrations: RootMigration[];
  readonly roots: string[];
  readonly missingRoots: string[];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Trailing slashes off (`/` stays). */
export function normalizePrefix(value: string): string {
  const trimmed = value.trim();
  return trimmed.length > 1 ? trimmed.replace(/\/+$/, '') : trimmed;
}

/** Explicit roots (checked) or the defaults (missing ones reported). */
export function resolveRoots(
  explicit: readonly string[] | undefined,
  defaults: readonly string[],
  allowed: readonly string[] = [],
  field = 'roots',
): { roots: string[]; missingRoots: string[] } {
  const given = (explicit ?? []).map((root) => root.trim()).filter((root) => root !== '');
  if (given.length > 0) {
    given.forEach((root, index) => {
      if (
        !isAbsolute(root) ||
        root.includes('\u0000') ||
        hasParentSegment(root) ||
        !isDirectory(root)
      )
        throw new BadRequestError(
          SYMLINK_ROOT_INVALID,
          `${field}[${index}] must be an absolute path of an existing directory`,
          { field: `${field}[${index}]` },
        );
      checkAllowed(root, allowed, `${field}[${index}]`);
    });
    return { roots: [...new Set(given.map((root) => resolve(root)))], missingRoots: [] };
  }
  const unique = [...new Set(defaults.map((root) => root.trim()).filter((root) => root !== ''))];
  // A default tree outside the allowed roots is left out like a missing one (and listed).
  const usable = (root: string): boolean => isDirectory(root) && isAllowed(root, allowed);
  return {
    roots: unique.filter(usable),
    missingRoots: unique.filter((root) => !usable(root)),
  };
}

/** Check and resolve a repair request. */
export function planRepair(
  request: RepairRequest,
  defaultRoots: readonly string[],
  allowed: readonly string[] = [],
): RepairPlan {
  const { rules: presetList, unknown } = presetRules(request.presets ?? []);
  if (unknown.length > 0)
    throw new BadRequestError(
      SYMLINK_PRESET_UNKNOWN,
      `Unknown preset ${unknown.map((name) => `'${name}'`).join(', ')}; known: ${Object.keys(PRESETS).join(', ')}`,
      { field: 'presets' },
    );
  const rules = [
    ...presetList,
    ...(request.rewrite_rules ?? [])
      .map((rule) => ({
        from_prefix: normalizePrefix(rule.from_prefix),
        to_prefix: normalizePrefix(rule.to_prefix),
      }))
      .filter((rule) => rule.from_prefix !== '' && rule.to_prefix !== ''),
  ];
  const migrations = (request.root_migrations ?? [])
    .map((migration) => ({
      from_root: normalizePrefix(migration.from_root),
      to_root: normalizePrefix(migration.to_root),
    }))
    .filter((migration) => migration.from_root !== '' && migration.to_root !== '');
  if (rules.length === 0 && migrations.length === 0)
    throw new BadRequestError(
      SYMLINK_NO_RULES,
      'Provide at least one rewrite rule, root migration, or preset.',
      { field: 'rewrite_rules' },
    );
  migrations.forEach((migration, index) => checkMigration(migration, index, allowed));
  const { roots, missingRoots } =
    rules.length > 0
      ? resolveRoots(request.roots, defaultRoots, allowed)
      : { roots: [], missingRoots: [] };
  return { rules, migrations, roots, missingRoots };
}

/**
 * Both sides absolute and inside the allowed roots by real path; `to_root` an existing directory
 * or not there yet (the repair creates it and its parents; a dry run only plans).
 */
function checkMigration(migration: RootMigration, index: number, allowed: readonly string[]): void {
  for (const side of ['from_root', 'to_root'] as const) {
    const path = migration[side];
    const field = `root_migrations[${index}].${side}`;
    const isTo = side === 'to_root';
    if (
      !isAbsolute(path) ||
      path.includes('\u0000') ||
      hasParentSegment(path) ||
      (isTo && existsSync(path) && !isDirectory(path))
    )
      throw new BadRequestError(
        SYMLINK_ROOT_INVALID,
        `${field} must be an absolute path${isTo ? ' of a directory (or of one to create)' : ''}`,
        { field },
      );
    checkAllowed(path, allowed, field);
  }
}
