/**
 * Scheduled backups per service (docs/original-product.md §3): every process block carrying
 * `symlink_backup_*` settings gets a status; enabled ones run a backup when due (checked every
 * `tickMs`), then prune older backups beyond the retention count. Reschedule rebuilds a
 * service's state from the current configuration.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  findProcessEntry,
  listProcessEntries,
  type JsonRecord,
  type Logger,
} from '../../../sdk/index.js';
import {
  backupSettings,
  fillTemplate,
  hasBackupSettings,
  nextDue,
  type BackupSettings,
} from './backup-settings.js';
import { jobFailure } from '../io-failure.js';
import { backupPattern, listFiles } from '../manifest/manifest-listing.js';
import { normalizedName } from '../jobs/job-store.js';
import type { BackupResult } from './backup.js';

/** The status object of one service (reference field names). */
export interface BackupStatus {
  process_name: string;
  checked_at: number;
  status: 'scheduled' | 'completed' | 'error' | 'disabled' | 'unsupported';
  message: string;
  symlink_backup_enabled: boolean;
  symlink_backup_interval: number;
  symlink_backup_start_time: string;
  symlink_backup_path: string;
  symlink_backup_include_broken: boolean;
  symlink_backup_roots: string[];
  symlink_backup_retention_count: number;
  next_backup_at: number | null;
  last_backup_at?: number;
  last_backup_manifest?: string;
  scanned_symlinks?: number;
  recorded_entries?: number;
  pruned_backups?: number;
  retention_errors?: Array<{ path: string; error: string }>;
  errors?: Array<{ link_path: string; error: string }>;
}

/** What the scheduler needs. */
export interface SchedulerDeps {
  readonly document: () => JsonRecord;
  /** Confine a path template's result like any manifest path (throws when outside). */
  readonly manifestPath: (raw: string) => string;
  readonly backup: (
    processName: string,
    path: string,
    settings: BackupSettings,
  ) => Promise<BackupResult>;
  readonly logger: Logger;
  readonly now?: () => number;
}

const sec = (ms: number): number => Math.floor(ms / 1000);

/** Status and runs of scheduled backups. */
export class BackupScheduler {
  private readonly states = new Map<string, BackupStatus>();
  private readonly due = new Map<string, number>();
  private running = false;

  constructor(private readonly deps: SchedulerDeps) {}

  private get now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** The status of a service, or null when it has none. */
  status(processName: string): BackupStatus | null {
    const entry = findProcessEntry(listProcessEntries(this.deps.document()), processName);
    if (entry === undefined) return null;
    const key = normalizedName(entry.process_name);
    if (!this.states.has(key)) this.reschedule(entry.process_name);
    return this.states.get(key) ?? null;
  }

  /** Rebuild a service's schedule from the configuration: `{status, message}`. */
  reschedule(processName: string): { status: 'ok' | 'error'; message: string } {
    const entry = findProcessEntry(listProcessEntries(this.deps.document()), processName);
    if (entry === undefined) return { status: 'error', message: 'Configuration not found' };
    const key = normalizedName(entry.process_name);
    if (!hasBackupSettings(entry.block)) {
      this.states.set(
        key,
        this.fresh(
          entry.process_name,
          backupSettings(entry.block),
          'unsupported',
          'Symlink backup scheduling not supported for this service',
        ),
      );
      return {
        status: 'error',
        message: 'Symlink backup scheduling not supported for this service',
      };
    }
    const settings = backupSettings(entry.block);
    if (!settings.enabled) {
      this.due.delete(key);
      this.states.set(
        key,
        this.fresh(entry.process_name, settings, 'disabled', 'Symlink backup schedule disabled'),
      );
      return { status: 'ok', message: 'Symlink backup schedule disabled' };
    }
    const next = nextDue(this.now, settings);
    this.due.set(key, next);
    const previous = this.states.get(key);
    this.states.set(key, {
      ...previous,
      ...this.fresh(entry.process_name, settings, 'scheduled', 'Symlink backup scheduled.'),
      next_backup_at: sec(next),
    });
    return { status: 'ok', message: 'Symlink backup schedule rescheduled' };
  }

  /** Reschedule every service with settings (at start and after a configuration change). */
  rescheduleAll(): void {
    for (const entry of listProcessEntries(this.deps.document()))
      if (hasBackupSettings(entry.block)) this.reschedule(entry.process_name);
  }

  /** One tick: run what is due (never two runs at once). */
  async tick(): Promise<void> {
    if (this.running) return;
    // Nothing due: the document is not read. Reading it copies the whole configuration, and with
    // a thousand processes that copy held the event loop for several milliseconds every tick.
    const now = this.now;
    if (![...this.due.values()].some((due) => now >= due)) return;
    this.running = true;
    try {
      for (const entry of listProcessEntries(this.deps.document())) {
        const key = normalizedName(entry.process_name);
        const due = this.due.get(key);
        if (due === undefined || this.now < due) continue;
        await this.run(entry.process_name, backupSettings(entry.block));
      }
    } finally {
      this.running = false;
    }
  }

  private async run(processName: string, settings: BackupSettings): Promise<void> {
    const key = normalizedName(processName);
    const started = this.now;
    this.due.set(key, nextDue(started + 1000, settings));
    const base = this.fresh(processName, settings, 'completed', 'Symlink backup completed.');
    try {
      const path = this.deps.manifestPath(
        fillTemplate(settings.pathTemplate, processName, new Date(started)),
      );
      const result = await this.deps.backup(processName, path, settings);
      const pruned = await this.prune(processName, settings, path);
      this.states.set(key, {
        ...base,
        next_backup_at: sec(this.due.get(key) ?? started),
        last_backup_at: sec(started),
        last_backup_manifest: result.backup_manifest,
        scanned_symlinks: result.scanned_symlinks,
        recorded_entries: result.recorded_entries,
        pruned_backups: pruned.pruned,
        retention_errors: pruned.errors,
        errors: result.errors,
      });
    } catch (error) {
      // A full disk fails this run (recorded in its state), never the host.
      const { message } = jobFailure(error);
      this.deps.logger.warn(`scheduled symlink backup of ${processName} failed: ${message}`);
      this.states.set(key, {
        ...base,
        status: 'error',
        message,
        next_backup_at: sec(this.due.get(key) ?? started),
        last_backup_at: sec(started),
      });
    }
  }

  private async prune(processName: string, settings: BackupSettings, written: string) {
    const errors: Array<{ path: string; error: string }> = [];
    if (settings.retentionCount === 0) return { pruned: 0, errors };
    const { regex } = backupPattern(settings.pathTemplate, processName);
    const files = await listFiles(dirname(written), regex);
    let pruned = 0;
    for (const file of files.slice(settings.retentionCount)) {
      try {
        await rm(file.path);
        pruned += 1;
      } catch (error) {
        errors.push({
          path: file.path,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return { pruned, errors };
  }

  private fresh(
    processName: string,
    settings: BackupSettings,
    status: BackupStatus['status'],
    message: string,
  ): BackupStatus {
    return {
      process_name: processName,
      checked_at: sec(this.now),
      status,
      message,
      symlink_backup_enabled: settings.enabled,
      symlink_backup_interval: settings.intervalHours,
      symlink_backup_start_time: settings.startTime,
      symlink_backup_path: settings.pathTemplate,
      symlink_backup_include_broken: settings.includeBroken,
      symlink_backup_roots: settings.roots,
      symlink_backup_retention_count: settings.retentionCount,
      next_backup_at: null,
    };
  }
}
