/**
 * The journal as server-sent events. Each pass reads the next page from SQLite after the last
 * cursor sent, so the stream holds no copy of the journal: a slow reader only slows its own
 * reads (the response writer waits for the socket to drain), and replay and live share one path,
 * with no seam where an event could be missed or sent twice.
 */
import type { JournalFilter } from './journal-query.js';
import type { JournalStore, StoredEvent } from './journal-store.js';

const PAGE = 500;
// A comment line now and then keeps proxies from closing an idle stream.
const KEEPALIVE_MS = 15_000;

/** An endless SSE body that ends when `signal` aborts (client gone, host stopping). */
export async function* serverSentEvents(
  store: JournalStore,
  filter: JournalFilter,
  signal: AbortSignal,
): AsyncIterable<Uint8Array> {
  let last = filter.since;
  // Clients (EventSource) reconnect after 2 s when the stream ends.
  yield Buffer.from(`retry: 2000\n: stackd event journal after cursor ${last}\n\n`, 'utf8');
  while (!signal.aborted) {
    // Read and head together, in one tick: no batch can commit in between.
    const head = store.head;
    const page = store.readStored({
      since: last,
      kinds: filter.kinds,
      subject: filter.subject,
      limit: PAGE,
    });
    if (page.length > 0) {
      last = page[page.length - 1]?.cursor ?? last;
      yield Buffer.from(page.map(formatEvent).join(''), 'utf8');
      continue;
    }
    // Everything up to the head was examined (filters skipped it): no need to read it again.
    last = Math.max(last, head);
    if (!(await nextBatch(store, signal))) yield Buffer.from(': keepalive\n\n', 'utf8');
  }
}

function formatEvent(event: StoredEvent): string {
  return `id: ${event.cursor}\ndata: ${event.json}\n\n`;
}

/** Resolves true on the next committed batch, false on keepalive time or abort. */
function nextBatch(store: JournalStore, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (value: boolean): void => {
      clearTimeout(timer);
      off();
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = (): void => done(false);
    const off = store.subscribe(() => done(true));
    const timer = setTimeout(() => done(false), KEEPALIVE_MS);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
