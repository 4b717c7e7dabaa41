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
import type { StreamClient, StreamDefinition } from '../../sdk/stream.js';
import { HubClient, type StreamRuntime } from '../ws/stream-runtime.js';
import type { EventJournal } from './event-journal.js';
import { checkCursor, parseKinds, type JournalFilter } from './journal-query.js';
import { eventSchema, frameSchema, JournalQuerySchema } from './journal-schemas.js';
import type { StoredEvent } from './journal-store.js';

type Query = Static<typeof JournalQuerySchema>;
type Client = StreamClient<Query>;

// About 500 KB of frames: few queries and large writes, and at most that held per slow client.
const REPLAY_PAGE = 5000;

interface Follower {
  readonly client: HubClient;
  readonly filter: JournalFilter;
  live: boolean;
}

/** The live clients of one filter, subscribed to one uWS topic. */
interface Topic {
  readonly filter: JournalFilter;
  readonly clients: Set<HubClient>;
}

/** The stream's definition, and the wiring of live batches to its runtime. */
export class JournalStream {
  private readonly followers = new Map<number, Follower>();
  /** Live clients by topic: one topic per distinct filter (kinds and subject). */
  private readonly topics = new Map<string, Topic>();

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
      onClose: (client) => this.forget(client.id),
    };
  }

  /**
   * Send every committed batch to the live clients it matches: each frame is published once per
   * distinct filter to that filter's uWS topic, and uWS writes it to every subscriber (one write
   * per client and batch), instead of a call per frame and client from JavaScript.
   */
  attach(runtime: StreamRuntime): () => void {
    return this.journal.store.subscribe((events) => {
      for (const [topic, { filter, clients }] of this.topics) {
        const { kinds, subject } = filter;
        const frames =
          kinds === undefined && subject === undefined
            ? events.map((event) => event.json)
            : events.filter((event) => matches(filter, event)).map((event) => event.json);
        if (frames.length > 0) runtime.broadcast(topic, frames, clients);
      }
    });
  }

  private async open(client: Client): Promise<void> {
    // The hub hands its own clients to onOpen; live delivery needs their uWS side.
    const hub: unknown = client;
    if (!(hub instanceof HubClient)) throw new Error('/ws/events needs a hub client');
    let follower: Follower;
    try {
      const since = client.query.since ?? 0;
      const kinds = parseKinds(this.journal, client.query.kinds);
      checkCursor(this.journal, since, 'since');
      follower = {
        client: hub,
        filter: { since, kinds, subject: client.query.subject },
        live: false,
      };
    } catch (error) {
      refuse(client, error, this.journal);
      return;
    }
    this.followers.set(client.id, follower);
    await this.replay(hub, follower);
  }

  private async replay(client: HubClient, follower: Follower): Promise<void> {
    const { store } = this.journal;
    let last = follower.filter.since;
    for (;;) {
      if (!client.ready) await client.whenReady();
      if (client.signal.aborted) return;
      const head = store.head;
      const page = store.readFrames({ ...follower.filter, since: last, limit: REPLAY_PAGE });
      if (page.frames.length === 0) {
        // Live from here, in the same tick as the empty read: the next batch reaches the topic.
        // The client's queue is empty (it was ready above), so no replay frame follows a live one.
        follower.live = true;
        client.send({ type: 'live', cursor: Math.max(last, head) });
        this.follow(follower);
        return;
      }
      client.sendAll(page.frames, { paced: true });
      last = page.last;
    }
  }

  private follow(follower: Follower): void {
    const topic = topicOf(follower.filter);
    let entry = this.topics.get(topic);
    if (entry === undefined) {
      entry = { filter: { ...follower.filter, since: 0 }, clients: new Set() };
      this.topics.set(topic, entry);
    }
    entry.clients.add(follower.client);
    follower.client.subscribe(topic);
  }

  private forget(id: number): void {
    const follower = this.followers.get(id);
    this.followers.delete(id);
    if (follower === undefined || !follower.live) return;
    const topic = topicOf(follower.filter);
    const entry = this.topics.get(topic);
    entry?.clients.delete(follower.client);
    if (entry?.clients.size === 0) this.topics.delete(topic);
  }
}

function topicOf(filter: JournalFilter): string {
  const kinds = filter.kinds === undefined ? '*' : [...filter.kinds].sort().join(',');
  return `/ws/events ${kinds} ${filter.subject === undefined ? '*' : JSON.stringify(filter.subject)}`;
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
