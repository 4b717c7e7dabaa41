/** The journal's SQL: its schema, the wire form of an event built by SQLite, page conditions. */

/** A page query: events after `since` matching the filters, oldest first. */
export interface JournalQuery {
  readonly since: number;
  readonly kinds?: readonly string[] | undefined;
  readonly subject?: string | undefined;
  readonly limit: number;
}

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  cursor INTEGER PRIMARY KEY AUTOINCREMENT,
  time TEXT NOT NULL, kind TEXT NOT NULL, subject TEXT NOT NULL, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_kind ON events(kind, cursor);
CREATE INDEX IF NOT EXISTS events_subject ON events(subject, cursor);
CREATE TABLE IF NOT EXISTS journal_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);`;

// The wire object is built by SQLite, with the stored data text as is (it is JSON already): no
// parse and re-serialize in JS. Same keys and order as a committed event's.
export const WIRE_JSON = `'{"cursor":' || cursor || ',"time":' || json_quote(time) || ',"kind":' ||
  json_quote(kind) || ',"subject":' || json_quote(subject) || ',"data":' || data || '}'`;
export const WIRE_COLUMNS = `cursor, kind, subject, ${WIRE_JSON} AS json`;
// Frames of a page are joined with the record separator, which JSON text never holds raw.
export const FRAME_SEPARATOR = '\x1e';

/** The WHERE clause of a page query and its parameters (the limit last). */
export function conditions(query: JournalQuery): { where: string; params: Array<string | number> } {
  const where = ['cursor > ?'];
  const params: Array<string | number> = [query.since];
  if (query.kinds !== undefined && query.kinds.length > 0) {
    where.push(`kind IN (${query.kinds.map(() => '?').join(', ')})`);
    params.push(...query.kinds);
  }
  if (query.subject !== undefined) {
    where.push('subject = ?');
    params.push(query.subject);
  }
  params.push(query.limit);
  return { where: where.join(' AND '), params };
}

/** The wire object of a just-committed event, with the same keys and order as a read one. */
export function wireJson(
  cursor: number,
  event: {
    readonly time: string;
    readonly kind: string;
    readonly subject: string;
    readonly data: string;
  },
): string {
  return `{"cursor":${cursor},"time":${JSON.stringify(event.time)},"kind":${JSON.stringify(event.kind)},"subject":${JSON.stringify(event.subject)},"data":${event.data}}`;
}
