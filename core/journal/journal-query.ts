/** Checks shared by GET /events, its server-sent events and /ws/events: cursor and kinds. */
import { HttpError, InputError } from '../../sdk/errors.js';
import type { EventJournal } from './event-journal.js';

/** The most events one page may ask for. */
export const MAX_PAGE = 1000;

/** A validated read position and filters. */
export interface JournalFilter {
  readonly since: number;
  readonly kinds: readonly string[] | undefined;
  readonly subject: string | undefined;
}

/**
 * Refuse a cursor the journal cannot answer: above the head (a cursor from another host or a
 * typo) is 422; below what retention removed is 410 with the oldest retained cursor, so the
 * client knows to resync.
 */
export function checkCursor(journal: EventJournal, since: number, field: string): void {
  const { store } = journal;
  if (since > store.head)
    throw new InputError(
      'JOURNAL_CURSOR_IN_FUTURE',
      `cursor ${since} is above the newest event (${store.head})`,
      { field },
    );
  if (since > 0 && since < store.expiredThrough) {
    const oldest = store.oldest();
    throw new HttpError(
      410,
      'JOURNAL_CURSOR_EXPIRED',
      `cursor ${since} expired; the oldest is ${oldest}`,
      { field, headers: { 'x-journal-oldest-cursor': String(oldest) } },
    );
  }
}

/** Split and check `kinds=a,b`: every name must be a declared kind. */
export function parseKinds(
  journal: EventJournal,
  text: string | undefined,
): readonly string[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const kinds = text.split(',').map((kind) => kind.trim());
  const unknown = kinds.filter((kind) => !journal.has(kind));
  if (unknown.length > 0)
    throw new InputError(
      'JOURNAL_UNKNOWN_KIND',
      `unknown event kind(s): ${unknown.join(', ').slice(0, 200)}`,
      { field: 'kinds' },
    );
  return kinds;
}

/** A `Last-Event-ID` header as a cursor, or undefined when absent. */
export function lastEventId(header: string | undefined): number | undefined {
  if (header === undefined || header === '') return undefined;
  if (!/^\d{1,15}$/.test(header))
    throw new InputError('JOURNAL_BAD_CURSOR', 'Last-Event-ID must be a cursor (an integer ≥ 0)', {
      field: 'Last-Event-ID',
    });
  return Number(header);
}
