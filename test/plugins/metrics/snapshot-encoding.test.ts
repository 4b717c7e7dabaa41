import test from 'ava';
import { inflateRawSync } from 'node:zlib';
import { TurnBudget } from '../../../sdk/index.js';
import {
  encodeSnapshot,
  encodeSnapshotInTurns,
  SeriesPieces,
} from '../../../plugins/metrics/history/snapshot-encoding.js';
import { toSeriesRow } from '../../../plugins/metrics/history/series-row.js';
import { snapshotAt } from './snapshot-factory.js';

const BASE = Date.UTC(2026, 0, 1);

function manyProcesses(count: number): Record<string, { cpu: number; rss: number }> {
  const processes: Record<string, { cpu: number; rss: number }> = {};
  for (let index = 0; index < count; index += 1)
    processes[`Bench "${index}"`] = { cpu: index / 10, rss: 1000 + index };
  return processes;
}

test('encoded in turns: the same stored format as in one go (deflated JSON of the snapshot)', async (t) => {
  const snapshot = snapshotAt(BASE, { cpu: 12, processes: manyProcesses(300) });
  const sliced = await encodeSnapshotInTurns(snapshot);
  const whole = encodeSnapshot(snapshot);
  t.is(inflateRawSync(sliced.payload).toString('utf8'), JSON.stringify(snapshot));
  t.deepEqual(JSON.parse(sliced.series), toSeriesRow(snapshot));
  t.is(sliced.series, whole.series);
  t.is(sliced.size, sliced.payload.byteLength + Buffer.byteLength(sliced.series));
});

test('encoded in turns: a snapshot without processes, and one without system metrics', async (t) => {
  for (const snapshot of [
    snapshotAt(BASE),
    { timestamp: new Date(BASE).toISOString(), system: null, processes: {} },
  ]) {
    const sliced = await encodeSnapshotInTurns(snapshot);
    t.deepEqual(JSON.parse(inflateRawSync(sliced.payload).toString('utf8')), snapshot);
    t.deepEqual(JSON.parse(sliced.series), toSeriesRow(snapshot));
  }
});

test('encoded in turns: series pieces kept from the previous row give the same text', async (t) => {
  const pieces = new SeriesPieces();
  const first = snapshotAt(BASE, { processes: manyProcesses(50) });
  const changed = manyProcesses(60);
  changed['Bench "3"'] = { cpu: 99.5, rss: 7 };
  delete changed['Bench "4"'];
  const second = snapshotAt(BASE + 15_000, { processes: changed });
  for (const snapshot of [first, second, first]) {
    const encoded = await encodeSnapshotInTurns(snapshot, undefined, pieces);
    t.is(encoded.series, encodeSnapshot(snapshot).series);
  }
});

test('encoded in turns: the event loop turns while a large snapshot is encoded', async (t) => {
  const snapshot = snapshotAt(BASE, { processes: manyProcesses(2000) });
  let turns = 0;
  const ticker = setInterval(() => (turns += 1), 0);
  // A zero budget yields after every process: other callbacks must run in between.
  await encodeSnapshotInTurns(snapshot, new TurnBudget(0));
  clearInterval(ticker);
  t.true(turns > 10, `timers ran ${turns} times during the encoding`);
});
