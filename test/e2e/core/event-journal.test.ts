/**
 * The event journal against the real host: a client away for a while gets exactly what it
 * missed (WebSocket and server-sent events), bad parameters are 4xx naming the field, an expired
 * cursor is 410 with the oldest cursor, and kinds appear in the OpenAPI document.
 */
import test, { type ExecutionContext } from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { openEventStream } from '../../helpers/event-stream.js';
import { openSocket, request } from '../../helpers/http.js';
import { FIXTURES_DIR, startHost, type RunningHostProcess } from '../../helpers/start-host.js';
import { join } from 'node:path';

const BURST_PLUGIN = join(FIXTURES_DIR, 'plugins', 'event-burst.js');

interface WireEvent {
  cursor: number;
  kind: string;
  subject: string;
  data: { n: number };
}

let host: RunningHostProcess;

test.before(async () => {
  host = await startHost({ plugins: [BURST_PLUGIN] });
});
test.after.always(async () => {
  await host?.stop();
});

async function burst(count: number, subject: string): Promise<void> {
  // In chunks, so the events span many batches and arrive while clients are live.
  for (let done = 0; done < count; done += 1000) {
    const response = await request(host.url, '/test-events/burst', {
      body: { count: Math.min(1000, count - done), subject },
    });
    if (response.status !== 200) throw new Error(`burst answered ${response.status}`);
  }
}

async function head(): Promise<number> {
  const response = await request<{ head_cursor: number }>(host.url, '/events?limit=1');
  return response.body.head_cursor;
}

function assertExactRun(
  t: ExecutionContext,
  events: WireEvent[],
  count: number,
  after: number,
): void {
  t.is(events.length, count);
  const cursors = events.map((event) => event.cursor);
  t.true(cursors.every((cursor, index) => index === 0 || cursor > (cursors[index - 1] ?? 0)));
  t.true((cursors[0] ?? 0) > after);
  t.is(new Set(cursors).size, count, 'no event twice');
  t.deepEqual(
    events.map((event) => event.data.n),
    Array.from({ length: count }, (_, index) => index % 1000),
  );
}

test.serial(
  'WebSocket: 10,000 live, away for 5,000, back with the cursor: exactly those',
  async (t) => {
    const since = await head();
    const subject = 'ws-run';
    const live = await openSocket(
      host.url,
      `/ws/events?since=${since}&kinds=test.tick&subject=${subject}`,
    );
    await live.next((message) => message.includes('"type":"live"'));
    await burst(10_000, subject);
    const received = (): WireEvent[] =>
      live.messages.filter((m) => !m.includes('"type"')).map((m) => JSON.parse(m) as WireEvent);
    await eventually(() => received().length >= 10_000, {
      timeoutMs: 60_000,
      what: '10,000 live events',
    });
    const first = received();
    assertExactRun(t, first, 10_000, since);
    live.close();
    await live.closed;

    const last = first[first.length - 1]?.cursor ?? 0;
    await burst(5_000, subject);
    await burst(300, 'someone-else'); // filtered out by subject
    const back = await openSocket(
      host.url,
      `/ws/events?since=${last}&kinds=test.tick&subject=${subject}`,
    );
    await back.next((message) => message.includes('"type":"live"'), 60_000);
    const missed = (): WireEvent[] =>
      back.messages.filter((m) => !m.includes('"type"')).map((m) => JSON.parse(m) as WireEvent);
    // Part may come as replay, the rest live (the burst's last batches commit after the replay).
    await eventually(() => missed().length >= 5_000, { timeoutMs: 60_000, what: '5,000 missed' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assertExactRun(t, missed(), 5_000, last);
    back.close();
  },
);

test.serial(
  'SSE: 10,000 live, away for 5,000, Last-Event-ID resumes with exactly those',
  async (t) => {
    const since = await head();
    const subject = 'sse-run';
    const query = `/events?kinds=test.tick&subject=${subject}`;
    const live = await openEventStream(new URL(`${query}&since=${since}`, host.url).href);
    t.is(live.status, 200);
    t.true(live.contentType?.startsWith('text/event-stream'));
    await burst(10_000, subject);
    await eventually(() => live.records.length >= 10_000, {
      timeoutMs: 60_000,
      what: '10,000 SSE events',
    });
    const first = live.records.map((record) => JSON.parse(record.data) as WireEvent);
    assertExactRun(t, first, 10_000, since);
    t.true(live.records.every((record, i) => record.id === String(first[i]?.cursor)));
    live.close();

    const lastId = live.records[live.records.length - 1]?.id ?? '0';
    await burst(5_000, subject);
    const back = await openEventStream(new URL(query, host.url).href, { 'last-event-id': lastId });
    await eventually(() => back.records.length >= 5_000, {
      timeoutMs: 60_000,
      what: '5,000 missed',
    });
    // Anything more would arrive with the missed ones; give it a moment to show up.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assertExactRun(
      t,
      back.records.map((record) => JSON.parse(record.data) as WireEvent),
      5_000,
      Number(lastId),
    );
    back.close();
  },
);

test('bad parameters are 4xx naming the field', async (t) => {
  const above = (await head()) + 10_000_000;
  const cases: Array<[string, string, Record<string, string>?]> = [
    ['/events?since=abc', 'since'],
    ['/events?since=-1', 'since'],
    [`/events?since=${above}`, 'since'],
    ['/events?kinds=test.tick,no.such.kind', 'kinds'],
    ['/events?limit=1000000000', 'limit'],
    ['/events?limit=0', 'limit'],
    ['/events', 'Last-Event-ID', { 'last-event-id': 'yesterday' }],
  ];
  for (const [path, field, headers] of cases) {
    const response = await request(host.url, path, headers === undefined ? {} : { headers });
    t.true(response.status >= 400 && response.status < 500, `${path} answered ${response.status}`);
    t.is(response.body.field, field, path);
  }
  const socket = await openSocket(host.url, '/ws/events?kinds=no.such.kind');
  const closed = await socket.closed;
  t.is(closed.code, 1008);
  t.is(JSON.parse(socket.messages[0] ?? '{}').field, 'kinds');
});

test('pages: newest last, next_cursor continues, has_more tells a full page', async (t) => {
  const since = await head();
  await burst(250, 'pages');
  await eventually(
    async () =>
      (await request(host.url, '/events?subject=pages&limit=1000')).body.events.length === 250,
    { what: 'the burst committed' },
  );
  const seen: number[] = [];
  let cursor = since;
  for (let round = 0; round < 10; round += 1) {
    const page = await request<{ events: WireEvent[]; next_cursor: number; has_more: boolean }>(
      host.url,
      `/events?since=${cursor}&subject=pages&limit=100`,
    );
    t.is(page.status, 200);
    seen.push(...page.body.events.map((event) => event.data.n));
    cursor = page.body.next_cursor;
    if (!page.body.has_more) break;
  }
  t.deepEqual(
    seen,
    Array.from({ length: 250 }, (_, index) => index),
  );
});

test('event kinds and their data schemas are in the OpenAPI document', async (t) => {
  const doc = await request(host.url, '/openapi.json');
  const text = JSON.stringify(doc.body.paths['/events']);
  t.true(text.includes('"test.tick"'));
  t.true(text.includes('"service.stopped.unexpectedly"'));
  t.truthy(
    doc.body.paths['/ws/events'] ??
      doc.body.paths['/api/ws/events'] ??
      JSON.stringify(doc.body).includes('/ws/events'),
  );
  const capabilities = await request(host.url, '/process/capabilities');
  t.is(capabilities.body.event_journal, true);
});
