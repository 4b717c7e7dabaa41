/** A block's scheduled-backup settings: defaults, fallbacks, templates and the next due time. */
import test from 'ava';
import {
  backupSettings,
  DEFAULT_PATH_TEMPLATE,
  fillTemplate,
  hasBackupSettings,
  nextDue,
  processSlug,
} from '../../../../plugins/symlinks/backup/backup-settings.js';

test('a block takes part once it carries any symlink_backup_ key', (t) => {
  t.true(hasBackupSettings({ symlink_backup_enabled: false }));
  t.false(hasBackupSettings({ process_name: 'Radarr', symlink_library_path: '/lib' }));
});

test('missing and bad values fall back to the defaults', (t) => {
  t.deepEqual(backupSettings({}), {
    enabled: false,
    intervalHours: 168,
    startTime: '04:00',
    pathTemplate: DEFAULT_PATH_TEMPLATE,
    includeBroken: true,
    roots: [],
    retentionCount: 1,
  });
  t.like(
    backupSettings({
      symlink_backup_interval: 'often',
      symlink_backup_start_time: '25:00',
      symlink_backup_retention_count: -2,
      symlink_backup_path: '   ',
    }),
    {
      intervalHours: 168,
      startTime: '04:00',
      retentionCount: 1,
      pathTemplate: DEFAULT_PATH_TEMPLATE,
    },
  );
});

test('good values are read, roots from a list or a comma/newline string', (t) => {
  t.like(
    backupSettings({
      symlink_backup_enabled: true,
      symlink_backup_interval: 0.5,
      symlink_backup_start_time: '23:15',
      symlink_backup_include_broken: false,
      symlink_backup_retention_count: 0,
      symlink_backup_path: ' /backups/{process_slug}.json ',
    }),
    {
      enabled: true,
      intervalHours: 0.5,
      startTime: '23:15',
      includeBroken: false,
      retentionCount: 0,
      pathTemplate: '/backups/{process_slug}.json',
    },
  );
  t.deepEqual(backupSettings({ symlink_backup_roots: '/a, /b\n/c,,' }).roots, ['/a', '/b', '/c']);
  t.deepEqual(backupSettings({ symlink_backup_roots: [' /x ', ''] }).roots, ['/x']);
});

test('processSlug keeps letters and digits, lower case, and is never empty', (t) => {
  t.is(processSlug('Radarr 4K (main)'), 'radarr-4k--main');
  t.is(processSlug('!!!'), 'service');
});

test('fillTemplate fills every token from one UTC time', (t) => {
  const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
  t.is(
    fillTemplate('/b/{process_slug}-{timestamp}-{date}-{time}-{process_name}.json', 'Sonarr A', at),
    '/b/sonarr-a-20260102T030405Z-20260102-030405-Sonarr A.json',
  );
});

test('nextDue is the start time today, stepped by the interval past now', (t) => {
  const settings = backupSettings({
    symlink_backup_start_time: '04:00',
    symlink_backup_interval: 6,
  });
  const start = new Date(2026, 0, 2, 4, 0, 0, 0).getTime();
  t.is(nextDue(start - 60_000, settings), start, 'before the start time: the start time');
  t.is(nextDue(start, settings), start);
  t.is(nextDue(start + 60_000, settings), start + 6 * 3_600_000);
  t.is(nextDue(start + 13 * 3_600_000, settings), start + 18 * 3_600_000);
});
