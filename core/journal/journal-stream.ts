/**
 * /ws/events: replay after the cursor, then live. Replay reads pages from SQLite as JSON text and
 * sends each page in one write, paced by the socket (at most one page waits per client); when a
 * read comes back empty the client turns live in the same tick, before any other batch can
 * commit, so the seam has no gap and no duplicate. A committed batch reaches each live client in
 * one write, its events serialized once for all clients; a live client that cannot keep up is
 * closed (1013) and resumes from its last cursor, which is better than a silent gap.
 */
import type { Static } from '@sinclair/typebox';
import { isHttpError } from '../../sdk/errors.js';
import type { StreamClient, StreamDefinition, StreamHandle } from '../../sdk/stream.js';
import type { EventJournal } from './event-journal.js';
import { checkCursor, parseKinds, type JournalFilter } from './journal-query.js';
import { eventSchema, frameSchema, JournalQuerySchema } from './journal-schemas.js';
import type { StoredEvent } from './journal-store.js';

type Query = Static<typeof JournalQuerySchema>;
type Client = StreamClient<Query>;

// About 500 KB of frames: few queries and large writes, and at most that held per slow client.
const REPLAY_PAGE = 5000;

interface Follower {
  readonly client: Client;
  readonly filter: JournalFilter;
  live: boolean;
}

/** The stream's definition, and the wiring of live batches to its handle. */
export class JournalStream {
  private readonly followers = new Map<number, Follower>();

  constructor(private readonly journal: EventJournal) {}

  definition(): StreamDefinition<typeof JournalQuerySchema> {
    return {
      path: '/ws/events',
      summary: 'What happened, replayed from a cursor, then live',
      description:
        'Sends each event after `since` (the same objects as GET /events), then `{"type":"live","cursor":N}`, then live events. A bad or expired cursor gets `{"type":"error",...}` (code `JOURNAL_CURSOR_EXPIRED` with `oldest_cursor`) and close code 1008. A client too slow for the live flow is closed with 1013: reconnect with the last cursor received.',
      query: JournalQuerySchema,
      message: frameSchema(eventSchema(this.journal.all())),
      overflow: 'close',
      onOpen: (client) => this.open(client),
      onClose: (client) => {
        this.followers.delete(client.id);
      },
    };
  }

  /**
   * Send every committed batch to the live clients it matches, in one write per client. The
   * stream's handle is not used for this: its publish writes once per message and client.
   */
  attach(_handle: StreamHandle<Query>): () => void {
    return this.journal.store.subscribe((events) => {
      if (this.followers.size === 0) return;
      const everything = events.map((event) => event.json);
      for (const follower of this.followers.values()) {
        if (!follower.live) continue;
        const { kinds, subject } = follower.filter;
        const frames =
          kinds === undefined && subject === undefined
            ? everything
            : events.filter((event) => matches(follower.filter, event)).map((event) => event.json);
        if (frames.length > 0) follower.client.sendAll(frames);
      }
    });
  }

  private async open(client: Client): Promise<void> {
    let follower: Follower;
    try {
      const since = client.query.since ?? 0;
      const kinds = parseKinds(this.journal, client.query.kinds);
      checkCursor(this.journal, since, 'since');
      follower = {
        client,
        filter: { since, kinds, subject: client.query.subject },
        live: false,
      };
    } catch (error) {
      refuse(client, error, this.journal);
      return;
    }
    this.followers.set(client.id, follower);
    await this.replay(client, follower);
  }

  private async replay(client: Client, follower: Follower): Promise<void> {
    const { store } = this.journal;
    let last = follower.filter.since;
    for (;;) {
      if (!client.ready) await client.whenReady();
      if (client.signal.aborted) return;
      const head = store.head;
      const page = store.readFrames({ ...follower.filter, since: last, limit: REPLAY_PAGE });
      if (page.frames.length === 0) {
        follower.live = true;
        client.send({ type: 'live', cursor: Math.max(last, head) });
        return;
      }
      client.sendAll(page.frames, { paced: true });
      last = page.last;
    }
  }
}

function matches(filter: JournalFilter, event: StoredEvent): boolean {
  if (filter.subject !== undefined && event.subject !== filter.subject) return false;
  return filter.kinds === undefined || filter.kinds.includes(event.kind);
}

function refuse(client: Client, error: unknown, journal: EventJournal): void {
  if (!isHttpError(error)) throw error;
  const frame: Record<string, unknown> = { type: 'error', code: error.code, detail: error.message };
  if (error.field !== undefined) frame.field = error.field;
  if (error.code === 'JOURNAL_CURSOR_EXPIRED') frame.oldest_cursor = journal.store.oldest();
  client.send(frame);
  client.close(1008, error.message.slice(0, 120));
}
