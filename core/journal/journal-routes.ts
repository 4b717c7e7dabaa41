/**
 * GET /events: pages of the journal (JSON), or with `Accept: text/event-stream` the same journal
 * as server-sent events — replay from the cursor, then live — for clients without WebSocket.
 */
import { Type } from '@sinclair/typebox';
import {
  defineRoute,
  eraseRoute,
  rawReply,
  type AnyRouteDefinition,
  type HandlerRequest,
} from '../../sdk/http.js';
import { ErrorBody } from '../../sdk/schema.js';
import type { EventJournal } from './event-journal.js';
import {
  checkCursor,
  lastEventId,
  MAX_PAGE,
  parseKinds,
  type JournalFilter,
} from './journal-query.js';
import { eventSchema, JournalQuerySchema, pageSchema } from './journal-schemas.js';
import { serverSentEvents } from './server-sent-events.js';

const PageQuery = Type.Composite([
  JournalQuerySchema,
  Type.Object({
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_PAGE, description: `1–${MAX_PAGE}, default 100.` }),
    ),
  }),
]);

/** The journal's HTTP route. */
export function journalRoutes(journal: EventJournal): AnyRouteDefinition[] {
  const event = eventSchema(journal.all());
  return [
    eraseRoute(
      defineRoute({
        method: 'GET',
        path: '/events',
        summary: 'What happened, from a cursor: JSON pages or server-sent events',
        description:
          "Events oldest first after `since`. With `Accept: text/event-stream` the answer is a server-sent event stream: each event's `id:` is its cursor and `Last-Event-ID` resumes (it wins over `since`). A cursor older than retention answers 410 `JOURNAL_CURSOR_EXPIRED` naming the oldest cursor (also in the `x-journal-oldest-cursor` header).",
        tags: ['host'],
        schema: {
          query: PageQuery,
          response: { 200: pageSchema(event), 410: ErrorBody },
        },
        handler: (request) => {
          const filter = readFilter(journal, request);
          if (acceptsEventStream(request.headers.accept))
            return rawReply(
              200,
              {
                'content-type': 'text/event-stream; charset=utf-8',
                'cache-control': 'no-cache',
                'x-accel-buffering': 'no',
              },
              serverSentEvents(journal.store, filter, request.signal),
            );
          const limit = request.query.limit ?? 100;
          const head = journal.store.head;
          const events = journal.store.read({ ...filter, limit });
          const full = events.length === limit;
          return {
            events,
            next_cursor: full
              ? (events[events.length - 1]?.cursor ?? head)
              : Math.max(filter.since, head),
            has_more: full,
            head_cursor: head,
          };
        },
      }),
    ),
  ];
}

function readFilter(
  journal: EventJournal,
  request: Pick<
    HandlerRequest<{ query: typeof PageQuery; response: typeof ErrorBody }>,
    'query' | 'headers'
  >,
): JournalFilter {
  const resumed = lastEventId(request.headers['last-event-id']);
  const since = resumed ?? request.query.since ?? 0;
  const kinds = parseKinds(journal, request.query.kinds);
  checkCursor(journal, since, resumed === undefined ? 'since' : 'Last-Event-ID');
  return { since, kinds, subject: request.query.subject };
}

function acceptsEventStream(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('text/event-stream');
}
