/**
 * The replicator against fake request managers on 127.0.0.1, with real plugin storage and the
 * real event bus: state written only when a cycle changed it, status counts, failure events once
 * per transition, clearing failed records, and state read back after a restart.
 */
import test from 'ava';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HostEventBus } from '../../../core/runtime/event-bus.js';
import { LogSink, ScopedLogger } from '../../../core/logging/logger.js';
import { FolderStorage } from '../../../core/storage/plugin-storage.js';
import { syncConfigOf } from '../../../plugins/sync/config.js';
import { Replicator } from '../../../plugins/sync/replicator.js';
import type { SyncState } from '../../../plugins/sync/state.js';
import { notableEvent, OutboundClient, type NotableEvent } from '../../../sdk/index.js';
import { startFakeSeerr, type FakeSeerr } from '../../e2e/sync/fake-seerr.js';

const outbound = new OutboundClient();
test.after.always(() => outbound.close());

interface Rig {
  readonly replicator: Replicator;
  readonly storage: FolderStorage;
  readonly events: NotableEvent[];
  readonly cycles: Array<[boolean, number]>;
  readonly primary: FakeSeerr;
  readonly sub: FakeSeerr;
}

async function rig(dataDir = mkdtempSync(join(tmpdir(), 'stackd-sync-unit-'))): Promise<Rig> {
  const logger = new ScopedLogger(new LogSink('error', () => undefined), 'sync');
  const { bus } = new HostEventBus(logger, () => undefined).scoped('sync');
  const events: NotableEvent[] = [];
  bus.on(notableEvent, (event) => void events.push(event));
  const cycles: Array<[boolean, number]> = [];
  const storage = new FolderStorage(dataDir, 'sync');
  const replicator = new Replicator(storage, bus, logger, outbound, (failed, fresh) =>
    cycles.push([failed, fresh]),
  );
  const [primary, sub] = await Promise.all([startFakeSeerr('p'), startFakeSeerr('s')]);
  return { replicator, storage, events, cycles, primary, sub };
}

/** Configure with the timer off (enabled false) so each test drives the polls itself. */
function configure(r: Rig, enabled = false): void {
  const config = syncConfigOf({
    stackd: {
      sync: {
        enabled,
        primary: { url: r.primary.url, api_key: 'p' },
        retry_delay_seconds: 0,
      },
    },
  });
  r.replicator.apply(config, [{ label: 'sub', url: r.sub.url, api_key: 's' }]);
}

async function close(r: Rig): Promise<void> {
  await r.replicator.stop();
  await Promise.all([r.primary.close(), r.sub.close()]);
}

test('a cycle that copies writes the state (0600); an idle one writes nothing', async (t) => {
  const r = await rig();
  t.teardown(() => close(r));
  await r.replicator.load();
  configure(r);
  r.primary.add('movie', 1);
  r.primary.add('movie', 2);
  await r.replicator.poll();
  t.is(r.sub.requests.length, 2);
  const file = r.storage.path('state.json');
  const written = statSync(file);
  t.is(written.mode & 0o777, 0o600);
  const saved = await r.storage.readJson<SyncState>('state.json');
  t.deepEqual(Object.keys(saved?.requests ?? {}).sort(), ['movie:1:false', 'movie:2:false']);

  await new Promise((resolve) => setTimeout(resolve, 1100));
  await r.replicator.poll();
  t.is(statSync(file).mtimeMs, written.mtimeMs, 'an idle poll leaves the file alone');
  t.not(r.replicator.rawState().last_poll_ts, saved?.last_poll_ts, 'but reports its poll');
  t.deepEqual(r.cycles, [
    [false, 0],
    [false, 0],
  ]);
});

test('a failing primary is one event until it recovers; each failed request one more', async (t) => {
  const r = await rig();
  t.teardown(() => close(r));
  configure(r);
  r.primary.add('movie', 1);
  r.primary.failList = true;
  await r.replicator.poll();
  await r.replicator.poll();
  t.deepEqual(
    r.events.map((event) => event.event_type),
    ['request_sync.failed'],
  );
  t.is(r.events[0]?.condition_key, 'request_sync:primary');
  t.deepEqual(r.cycles, [
    [true, 0],
    [true, 0],
  ]);

  r.primary.failList = false;
  r.sub.failCreate = true;
  await r.replicator.poll();
  t.deepEqual(
    r.events.map((event) => [event.event_type, event.condition_key]),
    [
      ['request_sync.failed', 'request_sync:primary'],
      ['request_sync.recovered', 'request_sync:primary'],
      ['request_sync.failed', 'request_sync:movie:1:false||sub'],
    ],
  );
  t.deepEqual(r.cycles.at(-1), [false, 1]);
  t.deepEqual(
    r.replicator.failedItems().map(({ fingerprint, subordinate }) => [fingerprint, subordinate]),
    [['movie:1:false', 'sub']],
  );

  r.sub.failCreate = false;
  await r.replicator.poll();
  t.is(r.events.at(-1)?.event_type, 'request_sync.recovered');
  t.deepEqual(r.replicator.failedItems(), []);
});

test('clearing failed records: by fingerprint or all, saved at once', async (t) => {
  const r = await rig();
  t.teardown(() => close(r));
  configure(r);
  r.primary.add('movie', 1);
  r.primary.add('movie', 2);
  r.sub.failCreate = true;
  await r.replicator.poll();
  t.is(r.replicator.failedItems().length, 2);
  t.is(await r.replicator.clearFailed('movie:9:false'), 0);
  t.is(await r.replicator.clearFailed('movie:1:false'), 1);
  const saved = await r.storage.readJson<SyncState>('state.json');
  t.deepEqual(Object.keys(saved?.failed ?? {}), ['movie:2:false||sub']);
  t.is(await r.replicator.clearFailed(), 1);
  t.deepEqual(r.replicator.failedItems(), []);
});

test('status: disabled, then active with counts per subordinate', async (t) => {
  const r = await rig();
  t.teardown(() => close(r));
  t.deepEqual(r.replicator.status(), { enabled: false, status: 'disabled' });
  r.primary.add('movie', 1);
  r.primary.add('movie', 2);
  configure(r, true);
  await r.replicator.poll();
  const status = r.replicator.status();
  t.like(status, {
    enabled: true,
    status: 'active',
    poll_interval_seconds: 60,
    total_requests_tracked: 2,
    total_failed: 0,
    subordinates: { sub: { synced: 2, failed: 0 } },
  });
  t.regex(status.last_poll ?? '', /^\d{4}-\d\d-\d\dT/);
  t.truthy(status.next_poll);
});

test('the state is read back after a restart: nothing is created twice', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'stackd-sync-unit-'));
  const first = await rig(dataDir);
  configure(first);
  first.primary.add('movie', 1);
  await first.replicator.poll();
  await first.replicator.stop();

  const second = await rig(dataDir);
  t.teardown(() => Promise.all([close(first), close(second)]));
  await second.replicator.load();
  t.deepEqual(Object.keys(second.replicator.rawState().requests), ['movie:1:false']);
  // The new fakes hold the same request; the stored link means no create is tried.
  second.primary.add('movie', 1);
  second.sub.add('movie', 1);
  configure(second);
  await second.replicator.poll();
  t.is(second.sub.creates.length, 0);
});
