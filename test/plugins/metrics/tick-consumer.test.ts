/**
 * The tick consumer builds each view asynchronously: a failure anywhere in a tick is reported
 * and the next tick goes on; nothing rejects into the process.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import type { MetricsReader, MetricsSnapshot } from '../../../sdk/index.js';
import type { MetricsSnapshotView } from '../../../sdk/contracts/metrics-feed.js';
import type { HistoryRecorder } from '../../../plugins/metrics/history/history-recorder.js';
import type { MetricsFeedService } from '../../../plugins/metrics/metrics-feed-service.js';
import { TickConsumer } from '../../../plugins/metrics/tick-consumer.js';

/** A reader whose ticks the test fires by hand. */
function handReader(): { reader: MetricsReader; tick: (snapshot: MetricsSnapshot) => void } {
  let listener: ((snapshot: MetricsSnapshot) => void) | undefined;
  const reader = {
    subscribe: (next: (snapshot: MetricsSnapshot) => void) => {
      listener = next;
      return () => undefined;
    },
  } as unknown as MetricsReader;
  return { reader, tick: (snapshot) => listener?.(snapshot) };
}

function feedOf(accept: () => Promise<MetricsSnapshotView | null>, errors: unknown[]) {
  return {
    accept,
    reportListenerError: (error: unknown) => errors.push(error),
  } as unknown as MetricsFeedService;
}

const VIEW = { timestamp: 1 } as unknown as MetricsSnapshotView;
const SNAPSHOT = {} as MetricsSnapshot;

test('a view that fails to build is reported, and the next tick is consumed', async (t) => {
  const { reader, tick } = handReader();
  const errors: unknown[] = [];
  let calls = 0;
  const feed = feedOf(() => {
    calls += 1;
    return calls === 1 ? Promise.reject(new Error('bad sample')) : Promise.resolve(VIEW);
  }, errors);
  const published: MetricsSnapshotView[] = [];
  const consumer = new TickConsumer(reader, feed, (view) => published.push(view), {
    intervalMs: 1000,
    historyEveryMs: null,
  });
  consumer.start(undefined);
  tick(SNAPSHOT);
  tick(SNAPSHOT);
  await sleep(20);
  t.is(errors.length, 1);
  t.regex(String(errors[0]), /bad sample/);
  t.deepEqual(published, [VIEW]);
  consumer.stop();
});

test('a failing stream subscriber is reported and the view is still recorded', async (t) => {
  const { reader, tick } = handReader();
  const errors: unknown[] = [];
  const recorded: MetricsSnapshotView[] = [];
  const recorder = {
    record: (view: MetricsSnapshotView) => {
      recorded.push(view);
      return Promise.resolve();
    },
  } as unknown as HistoryRecorder;
  const consumer = new TickConsumer(
    reader,
    feedOf(() => Promise.resolve(VIEW), errors),
    () => {
      throw new Error('subscriber broke');
    },
    { intervalMs: 1000, historyEveryMs: 15_000 },
  );
  consumer.start(recorder);
  tick(SNAPSHOT);
  await sleep(20);
  t.is(errors.length, 1);
  t.deepEqual(recorded, [VIEW]);
  consumer.stop();
});
