/**
 * The journal across host deaths: what a client was sent survives SIGKILL, cursors keep rising
 * after a restart, and retention turns an old cursor into 410 naming the oldest one.
 */
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { openSocket, request } from '../../helpers/http.js';
import { FIXTURES_DIR, startHost, tempDir } from '../../helpers/start-host.js';

const BURST_PLUGIN = join(FIXTURES_DIR, 'plugins', 'event-burst.js');

interface WireEvent {
  cursor: number;
  subject: string;
  data: { n: number };
}

async function allEvents(url: string): Promise<Map<number, WireEvent>> {
  const events = new Map<number, WireEvent>();
  let since = 0;
  for (;;) {
    const page = await request<{ events: WireEvent[]; next_cursor: number; has_more: boolean }>(
      url,
      `/events?since=${since}&limit=1000`,
    );
    if (page.status !== 200) throw new Error(`GET /events answered ${page.status}: ${page.text}`);
    for (const event of page.body.events) events.set(event.cursor, event);
    since = page.body.next_cursor;
    if (!page.body.has_more) return events;
  }
}

test('SIGKILL during a burst: every event a client saw is kept, cursors continue above them', async (t) => {
  const dataDir = tempDir('stackd-journal-kill-');
  const first = await startHost({ plugins: [BURST_PLUGIN], dataDir });
  const client = await openSocket(first.url, '/ws/events?kinds=test.tick');
  await client.next((message) => message.includes('"type":"live"'));
  // Keep publishing until the host dies under it.
  const bursting = (async () => {
    for (let round = 0; round < 200; round += 1) {
      const response = await request(first.url, '/test-events/burst', {
        body: { count: 200, subject: 'kill' },
      }).catch(() => undefined);
      if (response === undefined) return;
    }
  })();
  // More than 3,000 events (the first message is the live frame).
  await eventually(() => client.messages.length > 3001, { timeoutMs: 30_000, what: 'a burst' });
  first.child.kill('SIGKILL');
  const seen = client.messages
    .filter((message) => !message.includes('"type"'))
    .map((message) => JSON.parse(message) as WireEvent);
  await first.stop();
  await bursting;
  t.true(seen.length > 3000);

  const second = await startHost({ plugins: [BURST_PLUGIN], dataDir });
  try {
    const stored = await allEvents(second.url);
    const missing = seen.filter((event) => stored.get(event.cursor)?.data.n !== event.data.n);
    t.deepEqual(missing, [], 'every event the client saw is still there');
    const highest = Math.max(...stored.keys());
    await request(second.url, '/test-events/burst', { body: { count: 1, subject: 'after' } });
    const after = await eventually(async () => {
      const page = await request<{ events: WireEvent[] }>(second.url, '/events?subject=after');
      return page.body.events[0];
    });
    t.true(after.cursor > highest, `${after.cursor} > ${highest}`);
  } finally {
    await second.stop();
  }
});

test('a cursor older than retention is 410 naming the oldest cursor', async (t) => {
  const dataDir = tempDir('stackd-journal-retention-');
  const config = { stackd: { journal: { max_events: 100 } } };
  const first = await startHost({ plugins: [BURST_PLUGIN], dataDir, config });
  await request(first.url, '/test-events/burst', { body: { count: 300 } });
  await eventually(
    async () => (await request(first.url, '/events?limit=1')).body.head_cursor >= 300,
    { what: 'the burst committed' },
  );
  await first.stop();
  // Retention runs at open (and every few seconds while running).
  const second = await startHost({ plugins: [BURST_PLUGIN], dataDir, config });
  try {
    const expired = await request(second.url, '/events?since=5');
    t.is(expired.status, 410);
    t.is(expired.body.code, 'JOURNAL_CURSOR_EXPIRED');
    t.is(expired.body.field, 'since');
    const oldest = Number(expired.headers.get('x-journal-oldest-cursor'));
    t.true(oldest > 5);
    t.true(expired.body.detail.includes(`the oldest is ${oldest}`));
    const fromStart = await request(second.url, '/events?since=0&limit=1000');
    t.is(fromStart.status, 200);
    t.is(fromStart.body.events[0].cursor, oldest);
    t.true(fromStart.body.events.length <= 100);

    const socket = await openSocket(second.url, '/ws/events?since=5');
    t.is((await socket.closed).code, 1008);
    const frame = JSON.parse(socket.messages[0] ?? '{}');
    t.is(frame.code, 'JOURNAL_CURSOR_EXPIRED');
    t.is(frame.oldest_cursor, oldest);
  } finally {
    await second.stop();
  }
});
