/** Retention on a real journal file: by count, by age, and the mark kept across a reopen. */
import { join } from 'node:path';
import test from 'ava';
import {
  closeJournalFile,
  openJournalFile,
  type OpenJournal,
} from '../../../core/journal/journal-file.js';
import { pruneEvents } from '../../../core/journal/journal-retention.js';
import { tempDir } from '../../helpers/start-host.js';

function fill(opened: OpenJournal, times: readonly string[]): void {
  opened.db.transaction(() => {
    for (const time of times) opened.insertEvent.run([time, 'test.kind', 'a', '{}']);
  });
}

const cursors = (opened: OpenJournal): number[] =>
  opened.db
    .all<{ cursor: number }>('SELECT cursor FROM events ORDER BY cursor')
    .map((row) => row.cursor);

test('events past the count or older than the cutoff go; the mark survives a reopen', (t) => {
  const file = join(tempDir('stackd-journal-retention-'), 'events.db');
  const fail = (error: unknown): void => t.fail(String(error));
  const opened = openJournalFile(file);
  t.is(opened.head, 0);
  fill(opened, [
    '2026-01-01T00:00:00.000Z',
    '2026-01-02T00:00:00.000Z',
    ...Array(4).fill('2026-02-01T00:00:00.000Z'),
  ]);
  const keepAll = { maxEvents: 100, cutoffTime: '2025-01-01T00:00:00.000Z' };
  t.is(pruneEvents(opened.db, 6, keepAll), null, 'nothing due');
  t.is(pruneEvents(opened.db, 6, { ...keepAll, cutoffTime: '2026-01-15T00:00:00.000Z' }), 2);
  t.deepEqual(cursors(opened), [3, 4, 5, 6]);
  t.is(pruneEvents(opened.db, 6, { ...keepAll, maxEvents: 1 }), 5);
  t.deepEqual(cursors(opened), [6]);
  closeJournalFile(opened, fail);

  const reopened = openJournalFile(file);
  t.teardown(() => closeJournalFile(reopened, fail));
  t.is(reopened.head, 6, 'the cursor keeps rising past what retention removed');
  t.is(reopened.prunedThrough, 5);
});
