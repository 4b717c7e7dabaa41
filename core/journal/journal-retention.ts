/** Retention of the journal: the oldest events go once there are too many or they are too old. */
import type { CoreDatabase } from '../storage/sqlite-store.js';

/**
 * Delete the events past retention (more than `maxEvents` behind `head`, or older than
 * `cutoffTime`) and record the highest cursor removed; returns it, or null when none was due.
 */
export function pruneEvents(
  db: CoreDatabase,
  head: number,
  limits: { readonly maxEvents: number; readonly cutoffTime: string },
): number | null {
  const through =
    db.get<{ c: number | null }>(
      'SELECT MAX(cursor) AS c FROM events WHERE cursor <= ? OR time < ?',
      [head - limits.maxEvents, limits.cutoffTime],
    )?.c ?? null;
  if (through === null) return null;
  db.transaction(() => {
    db.run('DELETE FROM events WHERE cursor <= ?', [through]);
    db.run(
      "INSERT INTO journal_meta (key, value) VALUES ('pruned_through', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      [through],
    );
  });
  return through;
}
