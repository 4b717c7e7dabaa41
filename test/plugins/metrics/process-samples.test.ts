import test from 'ava';
import { setImmediate } from 'node:timers/promises';
import { processMetricsFrom } from '../../../plugins/metrics/process-samples.js';
import { TurnBudget } from '../../../sdk/index.js';

const entry = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  status: 'running',
  pid: 42,
  pid_count: 2,
  cpu_percent: 1.5,
  rss_bytes: 4096,
  uptime_sec: 10,
  restarts: 1,
  ...overrides,
});

test('valid entries are kept, odd fields normalized, malformed entries left out', async (t) => {
  const result = await processMetricsFrom({
    good: entry(),
    odd: entry({ pid: 1.5, pid_count: -1, uptime_sec: 'soon', restarts: 2.5 }),
    noStatus: entry({ status: 7 }),
    badCpu: entry({ cpu_percent: Number.NaN }),
    notAnObject: [1, 2],
  });
  t.deepEqual(Object.keys(result), ['good', 'odd']);
  t.deepEqual(result.good, { process_name: 'good', ...entry() });
  t.deepEqual(result.odd, {
    process_name: 'odd',
    status: 'running',
    pid: null,
    pid_count: 0,
    cpu_percent: 1.5,
    rss_bytes: 4096,
    uptime_sec: null,
    restarts: 0,
  });
  t.deepEqual(await processMetricsFrom(undefined), {});
});

/** An entry as the supervisor makes it: its name first, every field valid. */
const full = (process_name: string): Record<string, unknown> => ({ process_name, ...entry() });

test('an entry that is already what the check makes is taken as it is, not copied', async (t) => {
  const exact = full('exact');
  const given: Record<string, object> = {
    exact,
    reordered: { ...entry(), process_name: 'reordered' },
    extra: { ...full('extra'), note: 'x' },
    renamed: full('other'),
  };
  const result = await processMetricsFrom(given);
  t.true(result.exact === exact);
  for (const name of ['reordered', 'extra', 'renamed']) {
    t.false(result[name] === given[name]);
    t.deepEqual(result[name], full(name));
    t.deepEqual(Object.keys(result[name] ?? {}), Object.keys(exact));
  }
});

test('a sample whose entries are all taken as they are is the answer itself', async (t) => {
  const sample: Record<string, object> = { a: full('a'), b: full('b') };
  t.true((await processMetricsFrom(sample)) === sample);
  const mixed: Record<string, object> = { ...sample, c: entry(), d: full('d') };
  const checked = await processMetricsFrom(mixed);
  t.false(checked === mixed);
  t.deepEqual(Object.keys(checked), ['a', 'b', 'c', 'd']);
  t.true(checked.a === mixed.a);
  t.true(checked.d === mixed.d);
  t.deepEqual(checked.c, full('c'));
});

test('a large sample is checked in turns: the event loop runs while it is', async (t) => {
  const sample = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, entry()]));
  let turnsSeen = 0;
  let checking = true;
  const countTurns = async (): Promise<void> => {
    while (checking) {
      await setImmediate();
      turnsSeen += 1;
    }
  };
  const counting = countTurns();
  // A budget of 0 ms is spent after every entry: the check yields between any two.
  const result = await processMetricsFrom(sample, new TurnBudget(0));
  checking = false;
  await counting;
  t.is(Object.keys(result).length, 50);
  t.true(turnsSeen >= 49, `${turnsSeen} turns of the loop while 50 entries were checked`);
});
