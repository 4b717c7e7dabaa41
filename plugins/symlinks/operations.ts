/**
 * The symlink operations the routes (and the scheduler) call: each checks its request, confines
 * its paths, and runs now (sync routes) or as a persisted job (async routes).
 */
import type { JsonRecord } from '../../sdk/index.js';
import { runBackup, type BackupResult } from './backup/backup.js';
import { configuredRoots, type SymlinksConfig } from './config.js';
import { realAllowedRoots } from './confinement.js';
import type { JobAck, JobRunner } from './jobs/job-runner.js';
import { readManifest } from './manifest/manifest-file.js';
import type { SymlinkPaths } from './paths.js';
import { planRepair, resolveRoots, type RepairRequest } from './repair/repair-plan.js';
import { runRepair, type RepairResult } from './repair/repair-run.js';
import {
  compareManifest,
  runRestore,
  type CompareResult,
  type RestoreResult,
} from './manifest/restore.js';

/** A backup request. */
export interface BackupRequest {
  readonly backup_path: string;
  readonly roots?: readonly string[];
  readonly include_broken: boolean;
  readonly process_name?: string;
}

/** A restore request. */
export interface RestoreRequest {
  readonly manifest_path: string;
  readonly dry_run: boolean;
  readonly overwrite_existing: boolean;
  readonly restore_broken: boolean;
  readonly process_name?: string;
}

/** A compare query. */
export interface CompareQuery {
  readonly manifest_path: string;
  readonly overwrite_existing: boolean;
  readonly restore_broken: boolean;
  readonly sample_limit: number;
}

/** What the operations need. */
export interface OperationsDeps {
  readonly config: () => SymlinksConfig;
  readonly paths: SymlinkPaths;
  readonly document: () => JsonRecord;
  readonly jobs: JobRunner;
}

const toRecord = <T extends object>(value: T): Record<string, unknown> =>
  value as unknown as Record<string, unknown>;

/** Repair, backup, restore and compare. */
export class SymlinkOperations {
  constructor(private readonly deps: OperationsDeps) {}

  /** The configured trees: the slice's defaults plus every block's backup roots and library path. */
  defaultRoots(): string[] {
    return configuredRoots(this.deps.config(), this.deps.document());
  }

  async repair(
    request: RepairRequest,
    signal?: AbortSignal,
    onProgress?: (p: object) => void,
  ): Promise<RepairResult> {
    const allowed = this.deps.config().allowed_roots;
    const plan = planRepair(request, this.defaultRoots(), allowed);
    const backupPath =
      request.backup_path === undefined || request.backup_path.trim() === ''
        ? null
        : this.deps.paths.manifest(request.backup_path, 'backup_path');
    return runRepair(request, plan, {
      concurrency: this.deps.config().scan_concurrency,
      maxListed: this.deps.config().max_listed_items,
      backupPath,
      confines: realAllowedRoots(allowed),
      ...(signal === undefined ? {} : { signal }),
      ...(onProgress === undefined ? {} : { onProgress }),
    });
  }

  repairAsync(request: RepairRequest): JobAck {
    // Checked now: a bad request is a 400 here, not a failed job later.
    planRepair(request, this.defaultRoots(), this.deps.config().allowed_roots);
    if (request.backup_path !== undefined && request.backup_path.trim() !== '')
      this.deps.paths.manifest(request.backup_path, 'backup_path');
    return this.deps.jobs.enqueue(
      'symlink_repair',
      request.process_name?.trim() || 'symlink-repair',
      {
        dry_run: request.dry_run,
        include_broken: request.include_broken,
        backup_path: request.backup_path ?? null,
        presets: request.presets ?? [],
        rewrite_rules: request.rewrite_rules ?? [],
        root_migrations: request.root_migrations ?? [],
        overwrite_existing: request.overwrite_existing,
        copy_instead_of_move: request.copy_instead_of_move,
        roots: request.roots ?? [],
      },
      async (onProgress, signal) => toRecord(await this.repair(request, signal, onProgress)),
    );
  }

  async backup(
    request: BackupRequest,
    signal?: AbortSignal,
    onProgress?: (p: object) => void,
  ): Promise<BackupResult> {
    const manifestPath = this.deps.paths.manifest(request.backup_path, 'backup_path');
    const allowed = this.deps.config().allowed_roots;
    const { roots, missingRoots } = resolveRoots(request.roots, this.defaultRoots(), allowed);
    return runBackup({
      manifestPath,
      roots,
      missingRoots,
      confines: realAllowedRoots(allowed),
      includeBroken: request.include_broken,
      concurrency: this.deps.config().scan_concurrency,
      maxListed: this.deps.config().max_listed_items,
      ...(signal === undefined ? {} : { signal }),
      ...(onProgress === undefined ? {} : { onProgress }),
    });
  }

  backupAsync(request: BackupRequest): JobAck {
    this.deps.paths.manifest(request.backup_path, 'backup_path');
    resolveRoots(request.roots, this.defaultRoots(), this.deps.config().allowed_roots);
    return this.deps.jobs.enqueue(
      'symlink_manifest_backup',
      request.process_name?.trim() || 'symlink-manifest',
      {
        backup_path: request.backup_path,
        include_broken: request.include_broken,
        roots: request.roots ?? [],
      },
      async (onProgress, signal) => toRecord(await this.backup(request, signal, onProgress)),
    );
  }

  async restore(request: RestoreRequest, onProgress?: (p: object) => void): Promise<RestoreResult> {
    const path = this.deps.paths.manifest(request.manifest_path, 'manifest_path');
    const manifest = await readManifest(path);
    return runRestore(path, manifest, {
      dryRun: request.dry_run,
      overwriteExisting: request.overwrite_existing,
      restoreBroken: request.restore_broken,
      maxListed: this.deps.config().max_listed_items,
      allowed: this.deps.config().allowed_roots,
      ...(onProgress === undefined ? {} : { onProgress }),
    });
  }

  restoreAsync(request: RestoreRequest): JobAck {
    this.deps.paths.manifest(request.manifest_path, 'manifest_path');
    return this.deps.jobs.enqueue(
      'symlink_manifest_restore',
      request.process_name?.trim() || request.manifest_path.trim() || 'symlink-manifest',
      {
        manifest_path: request.manifest_path,
        dry_run: request.dry_run,
        overwrite_existing: request.overwrite_existing,
        restore_broken: request.restore_broken,
      },
      async (onProgress) => toRecord(await this.restore(request, onProgress)),
    );
  }

  async compare(query: CompareQuery): Promise<CompareResult> {
    const path = this.deps.paths.manifest(query.manifest_path, 'manifest_path');
    const manifest = await readManifest(path);
    return compareManifest(path, manifest, {
      overwriteExisting: query.overwrite_existing,
      restoreBroken: query.restore_broken,
      sampleLimit: query.sample_limit,
    });
  }
}
