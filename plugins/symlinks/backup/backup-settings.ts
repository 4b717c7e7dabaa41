/**
 * A service block's scheduled-backup settings (docs/original-product.md §3): any process block that
 * carries a `symlink_backup_*` key takes part. Bad values fall back to the defaults, as in the
 * original; the interval is in hours (fractions allowed, at least 3.6 s) so tests can be quick.
 */
import { isoTime } from '../../../sdk/index.js';
import type { JsonRecord } from '../../../sdk/index.js';

/** The settings, defaults applied. */
export interface BackupSettings {
  readonly enabled: boolean;
  readonly intervalHours: number;
  readonly startTime: string;
  readonly pathTemplate: string;
  readonly includeBroken: boolean;
  readonly roots: string[];
  readonly retentionCount: number;
}

export const DEFAULT_PATH_TEMPLATE =
  '/config/symlink-repair/snapshots/{process_slug}-{timestamp}.json';

/** Whether a block takes part in scheduled backups at all. */
export function hasBackupSettings(block: JsonRecord): boolean {
  return Object.keys(block).some((key) => key.startsWith('symlink_backup_'));
}

function rootsOf(value: unknown): string[] {
  const list = Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string'
      ? value.split(/[,\n]/)
      : [];
  return list.map((root) => root.trim()).filter((root) => root !== '');
}

/** Read the settings of a block. */
export function backupSettings(block: JsonRecord): BackupSettings {
  const interval = Number(block.symlink_backup_interval ?? 168);
  const start =
    typeof block.symlink_backup_start_time === 'string' ? block.symlink_backup_start_time : '04:00';
  const template =
    typeof block.symlink_backup_path === 'string' ? block.symlink_backup_path.trim() : '';
  const retention = Number(block.symlink_backup_retention_count ?? 1);
  return {
    enabled: block.symlink_backup_enabled === true,
    intervalHours: Number.isFinite(interval) && interval >= 0.001 ? interval : 168,
    startTime: /^([01]\d|2[0-3]):[0-5]\d$/.test(start) ? start : '04:00',
    pathTemplate: template === '' ? DEFAULT_PATH_TEMPLATE : template,
    includeBroken: block.symlink_backup_include_broken !== false,
    roots: rootsOf(block.symlink_backup_roots),
    retentionCount: Number.isInteger(retention) && retention >= 0 ? retention : 1,
  };
}

/** Every character that is not alphanumeric becomes `-`; lower case; trimmed; never empty. */
export function processSlug(name: string): string {
  const slug = name
    .replace(/[^A-Za-z0-9]/g, '-')
    .toLowerCase()
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'service' : slug;
}

/** Fill a path template's tokens (`{timestamp}`, `{date}`, `{time}`, `{process_name}`, `{process_slug}`). */
export function fillTemplate(template: string, processName: string, at: Date): string {
  const iso = isoTime(at);
  const date = iso.slice(0, 10).replace(/-/g, '');
  const time = iso.slice(11, 19).replace(/:/g, '');
  return template
    .replaceAll('{timestamp}', `${date}T${time}Z`)
    .replaceAll('{date}', date)
    .replaceAll('{time}', time)
    .replaceAll('{process_name}', processName)
    .replaceAll('{process_slug}', processSlug(processName));
}

/** The next run: today at the start time (local clock), stepped by the interval past `now`. */
export function nextDue(now: number, settings: BackupSettings): number {
  const [hours = 4, minutes = 0] = settings.startTime.split(':').map(Number);
  const anchor = new Date(now);
  anchor.setHours(hours, minutes, 0, 0);
  const intervalMs = Math.max(3_600, settings.intervalHours * 3_600_000);
  const start = anchor.getTime();
  if (now <= start) return start;
  return start + Math.ceil((now - start) / intervalMs) * intervalMs;
}
