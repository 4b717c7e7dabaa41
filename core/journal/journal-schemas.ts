/** Wire schemas of the journal: one event schema per declared kind, pages and stream frames. */
import { Type, type TSchema } from '@sinclair/typebox';
import type { DeclaredKind } from './event-journal.js';

const Cursor = Type.Integer({ minimum: 1, description: 'Strictly increasing across restarts.' });

/** One event of any declared kind: a `oneOf` whose members each fix `kind` and type `data`. */
export function eventSchema(kinds: readonly DeclaredKind[]): TSchema {
  const members = kinds.map(({ kind }) =>
    Type.Object(
      {
        cursor: Cursor,
        time: Type.String({ description: 'ISO 8601 UTC' }),
        kind: Type.Literal(kind.kind),
        subject: Type.String({ description: kind.subject }),
        data: kind.data,
      },
      { title: kind.kind, description: kind.description },
    ),
  );
  return members.length === 1 ? (members[0] as TSchema) : Type.Union(members);
}

/** A page of GET /events. */
export function pageSchema<E extends TSchema>(event: E) {
  return Type.Object({
    events: Type.Array(event, { description: 'Oldest first (newest last).' }),
    next_cursor: Type.Integer({
      minimum: 0,
      description: 'Pass as `since` for the next page; everything up to it was examined.',
    }),
    has_more: Type.Boolean({ description: 'True when the page was full: ask again at once.' }),
    head_cursor: Type.Integer({ minimum: 0, description: 'The newest stored cursor.' }),
  });
}

/** Query of GET /events and /ws/events. */
export const JournalQuerySchema = Type.Object({
  since: Type.Optional(
    Type.Integer({
      minimum: 0,
      description:
        'Return events after this cursor; 0 (the default) means from the oldest retained event.',
    }),
  ),
  kinds: Type.Optional(
    Type.String({ description: 'Comma-separated kind names; unknown names are refused (422).' }),
  ),
  subject: Type.Optional(Type.String({ description: 'Exact subject, e.g. a process name.' })),
});

/** Frames of /ws/events. */
export function frameSchema(event: TSchema): TSchema {
  return Type.Union([
    event,
    Type.Object({
      type: Type.Literal('live'),
      cursor: Type.Integer({
        minimum: 0,
        description: 'Replay is complete up to here; what follows is live.',
      }),
    }),
    Type.Object({
      type: Type.Literal('error'),
      code: Type.String(),
      detail: Type.String(),
      field: Type.Optional(Type.String()),
      oldest_cursor: Type.Optional(Type.Integer()),
    }),
  ]);
}

/** The journal's section of `GET /health?detail=true`. */
export const JournalSizeSchema = Type.Object(
  {
    events: Type.Integer({ minimum: 0, description: 'Rows held.' }),
    bytes: Type.Integer({
      minimum: 0,
      description: 'Size of the database file (pages × page size).',
    }),
    oldest_cursor: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'The oldest retained cursor; null when empty.',
    }),
    newest_cursor: Type.Integer({ minimum: 0 }),
    commits: Type.Integer({ minimum: 0, description: 'Commits since the host started.' }),
    max_events: Type.Integer({ description: 'Retention by count (`stackd.journal.max_events`).' }),
    max_age_days: Type.Number({ description: 'Retention by age (`stackd.journal.max_age_days`).' }),
    commit_interval_ms: Type.Number({
      description:
        'The least time between two commits (`stackd.journal.commit_interval_ms`); a SIGKILL loses at most this plus one commit of events nobody was sent.',
    }),
  },
  { description: 'The event journal: its size, the cursors it holds and its settings.' },
);
