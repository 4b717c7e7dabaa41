/** Views kept until the document, the process states or their age say they are stale. */
import test from 'ava';
import { listProcessEntries, type JsonRecord, type ProcessEntry } from '../../../../sdk/index.js';
import {
  perDocument,
  stateView,
} from '../../../../plugins/supervisor/supervision/derived-views.js';

const documentOf = (names: readonly string[]): JsonRecord =>
  Object.fromEntries(names.map((name) => [name, { process_name: name, command: ['true'] }]));

test('a per-document value is derived once per document object, again for a new one', (t) => {
  let document = documentOf(['A']);
  const derived: JsonRecord[] = [];
  const entries = perDocument(
    () => document,
    (read) => (derived.push(read), listProcessEntries(read)),
  );
  const first = entries();
  t.is(entries(), first, 'the same array while the document is the same object');
  t.deepEqual(
    first.map((entry) => entry.process_name),
    ['A'],
  );
  document = documentOf(['A', 'B']);
  t.deepEqual(
    entries().map((entry) => entry.process_name),
    ['A', 'B'],
  );
  t.is(derived.length, 2);
});

test('a state view is rebuilt when the entries or the change count move, else kept', (t) => {
  let entries: ProcessEntry[] = listProcessEntries(documentOf(['A']));
  let changes = 0;
  let builds = 0;
  const view = stateView({ entries: () => entries, changes: () => changes }, (seen) => ({
    names: seen.map((entry) => entry.process_name),
    build: (builds += 1),
  }));
  const first = view();
  t.is(view(), first);
  changes += 1;
  const second = view();
  t.not(second, first, 'a state change rebuilds');
  t.is(view(), second);
  entries = listProcessEntries(documentOf(['A', 'B']));
  t.deepEqual(view().names, ['A', 'B'], 'new entries rebuild');
  t.is(builds, 3);
});

test('a state view with an age limit is rebuilt once older, one without never', async (t) => {
  const entries = listProcessEntries(documentOf(['A']));
  const source = { entries: () => entries, changes: () => 0 };
  const forever = stateView(source, () => ({}));
  const aging = stateView(source, () => ({}), 50);
  const first = { forever: forever(), aging: aging() };
  t.is(aging(), first.aging);
  await new Promise((resolve) => setTimeout(resolve, 80));
  t.not(aging(), first.aging);
  t.is(forever(), first.forever);
});
