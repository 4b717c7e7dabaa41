import test from 'ava';
import { Counter, Gauge, Histogram, Registry, type RegistryContentType } from 'prom-client';
import { LogSink, ScopedLogger } from '../../../core/logging/logger.js';
import { ExpositionRegistry } from '../../../core/metrics/exposition-registry.js';
import { run } from '../../e2e/prometheus/support.js';

const logger = new ScopedLogger(new LogSink('error', () => undefined), 'test');
const TRICKY = ['plain', 'quote " inside', 'back\\slash', 'line\nfeed', 'ünïcode ✓', ''];
const BUCKETS = [0.001, 0.01, 0.1, 1];

/** The same updates on stackd's registry and on a bare prom-client one. */
function bothRegistries() {
  const ours = new ExpositionRegistry(logger);
  const theirs = new Registry<RegistryContentType>();
  const registers = [theirs];
  const oursFamilies = {
    requests: ours.counter<'route' | 'status'>('t', {
      name: 'stackd_t_requests_total',
      help: 'Requests with "quotes" and a back\\slash',
      labelNames: ['route', 'status'],
    }),
    plain: ours.counter('t', { name: 'stackd_t_plain_total', help: 'No labels' }),
    level: ours.gauge<'process'>('t', {
      name: 'stackd_t_level',
      help: 'A level',
      labelNames: ['process'],
    }),
    idle: ours.gauge('t', { name: 'stackd_t_idle', help: 'Never set' }),
    latency: ours.histogram<'route'>('t', {
      name: 'stackd_t_latency_seconds',
      help: 'Latency',
      labelNames: ['route'],
      buckets: BUCKETS,
    }),
  };
  const theirFamilies = {
    requests: new Counter({
      name: 'stackd_t_requests_total',
      help: 'Requests with "quotes" and a back\\slash',
      labelNames: ['route', 'status'],
      registers,
    }),
    plain: new Counter({ name: 'stackd_t_plain_total', help: 'No labels', registers }),
    level: new Gauge({
      name: 'stackd_t_level',
      help: 'A level',
      labelNames: ['process'],
      registers,
    }),
    idle: new Gauge({ name: 'stackd_t_idle', help: 'Never set', registers }),
    latency: new Histogram({
      name: 'stackd_t_latency_seconds',
      help: 'Latency',
      labelNames: ['route'],
      buckets: BUCKETS,
      registers,
    }),
  };
  const update = (step: number): void => {
    for (const [index, route] of TRICKY.entries()) {
      const labels = { route, status: 200 + index };
      oursFamilies.requests.inc(labels, step);
      theirFamilies.requests.inc(labels, step);
      oursFamilies.level.set({ process: route }, index * step - 0.5);
      theirFamilies.level.set({ process: route }, index * step - 0.5);
      oursFamilies.latency.observe({ route }, index * 0.004 * step);
      theirFamilies.latency.observe({ route }, index * 0.004 * step);
    }
    oursFamilies.plain.inc();
    theirFamilies.plain.inc();
  };
  return { ours, theirs, oursFamilies, theirFamilies, update };
}

/**
 * Sample and metadata lines, without the blank lines prom-client puts between families and with
 * each label set in name order (prom-client writes `le` first, stackd last; both are valid).
 */
const lines = (text: string): string[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) =>
      line.replace(/\{(.*)\}/, (_all, inner: string) => {
        const pairs = [...inner.matchAll(/[a-zA-Z_]+="(?:[^"\\]|\\.)*"/g)].map((m) => m[0]);
        return `{${pairs.sort().join(',')}}`;
      }),
    );

test('the text format has the same lines as prom-client for the same updates', async (t) => {
  const { ours, theirs, oursFamilies, theirFamilies, update } = bothRegistries();
  update(1);
  update(3);
  oursFamilies.level.reset();
  theirFamilies.level.reset();
  oursFamilies.level.set({ process: 'after reset' }, 7);
  theirFamilies.level.set({ process: 'after reset' }, 7);
  const text = await ours.render('text/plain');
  t.is(text.contentType, 'text/plain; version=0.0.4; charset=utf-8');
  t.deepEqual(lines(text.body), lines(await theirs.metrics()));
  t.regex(text.body, /stackd_t_level\{process="after reset"\} 7\n/);
  t.notRegex(text.body, /process="plain"/, 'a reset gauge forgets its series');
  t.regex(text.body, /^stackd_t_idle 0$/m, 'a family without labels starts at 0');
  t.regex(text.body, /route="quote \\" inside"/);
  t.regex(text.body, /route="line\\nfeed"/);
  t.regex(text.body, /route="back\\\\slash"/);
  const checked = await run('promtool', ['check', 'metrics'], text.body);
  t.is(checked.code, 0, checked.output);
});

test('OpenMetrics names counter families without _total and ends with # EOF, like prom-client', async (t) => {
  const { ours, theirs, update } = bothRegistries();
  update(2);
  const open = await ours.render('application/openmetrics-text; version=1.0.0');
  t.is(open.contentType, 'application/openmetrics-text; version=1.0.0; charset=utf-8');
  t.true(open.body.endsWith('# EOF\n'));
  t.regex(open.body, /# TYPE stackd_t_requests counter\nstackd_t_requests_total\{/);
  theirs.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  const reference = lines(await theirs.metrics()).map((line) =>
    // OpenMetrics escapes quotes in help text too; prom-client leaves them bare.
    line.replace('Requests with "quotes"', 'Requests with \\"quotes\\"'),
  );
  t.deepEqual(lines(open.body), reference);
  // The text format still names the family with _total after an OpenMetrics render.
  t.regex((await ours.render(undefined)).body, /# TYPE stackd_t_requests_total counter/);
});

test('a series set again after a reset is exposed; one left out is dropped', async (t) => {
  const registry = new ExpositionRegistry(logger);
  const gauge = registry.gauge<'process'>('t', {
    name: 'stackd_t_up',
    help: 'Up',
    labelNames: ['process'],
  });
  const counter = registry.counter<'process'>('t', {
    name: 'stackd_t_restarts_total',
    help: 'Restarts',
    labelNames: ['process'],
  });
  for (let scrape = 1; scrape <= 3; scrape += 1) {
    gauge.reset();
    for (const process of scrape < 3 ? ['a', 'b'] : ['b']) gauge.set({ process }, scrape);
    counter.setTotal({ process: 'a' }, scrape * 10);
    const body = (await registry.render(undefined)).body;
    t.regex(body, new RegExp(`stackd_t_up\\{process="b"\\} ${scrape}\\n`));
    t.regex(body, new RegExp(`stackd_t_restarts_total\\{process="a"\\} ${scrape * 10}\\n`));
    t.is(body.includes('stackd_t_up{process="a"}'), scrape < 3);
  }
});

test('names, labels and counters are checked', (t) => {
  const registry = new ExpositionRegistry(logger);
  t.throws(() => registry.gauge('t', { name: 'other_prefix', help: 'x' }), {
    message: /must match/,
  });
  t.throws(() => registry.gauge('t', { name: 'stackd_t_total', help: 'x' }), {
    message: /only counters end in _total/,
  });
  t.throws(() => registry.gauge('t', { name: 'stackd_t_a', help: 'x', labelNames: ['__x'] }), {
    message: /not a valid Prometheus label name/,
  });
  t.throws(
    () => registry.histogram('t', { name: 'stackd_t_b_seconds', help: 'x', labelNames: ['le'] }),
    { message: /cannot use label 'le'/ },
  );
  const counter = registry.counter('t', { name: 'stackd_t_c_total', help: 'x' });
  t.throws(() => counter.inc(undefined, -1), { message: /cannot decrease/ });
  registry.gauge('u', { name: 'stackd_t_a2', help: 'x' });
  t.throws(() => registry.gauge('v', { name: 'stackd_t_a2', help: 'x' }), {
    message: /declared by both 'u' and 'v'/,
  });
});

test('a bound series is exposed once set, follows its updates and outlives a reset', async (t) => {
  const registry = new ExpositionRegistry(logger);
  const gauge = registry.gauge<'process'>('t', {
    name: 'stackd_t_memory_bytes',
    help: 'Memory',
    labelNames: ['process'],
  });
  const counter = registry.counter<'process'>('t', {
    name: 'stackd_t_exits_total',
    help: 'Exits',
    labelNames: ['process'],
  });
  const a = gauge.labels({ process: 'a' });
  const b = gauge.labels({ process: 'b' });
  const exits = counter.labels({ process: 'a' });
  const body = async (): Promise<string> => (await registry.render(undefined)).body;
  t.false((await body()).includes('stackd_t_memory_bytes{'), 'bound but never set: not exposed');
  a.set(1);
  b.set(2);
  exits.inc();
  exits.inc(2);
  t.regex(
    await body(),
    /stackd_t_memory_bytes\{process="a"\} 1\nstackd_t_memory_bytes\{process="b"\} 2\n/,
  );
  t.regex(await body(), /stackd_t_exits_total\{process="a"\} 3\n/, 'the same text twice');
  a.set(5);
  t.regex(await body(), /stackd_t_memory_bytes\{process="a"\} 5\n/, 'a changed value is rendered');
  // Two resets drop a series not set in between; setting the bound series brings it back.
  gauge.reset();
  b.set(2);
  t.false((await body()).includes('memory_bytes{process="a"}'), 'not set since the reset: gone');
  gauge.reset();
  b.set(2);
  a.set(7);
  t.regex(await body(), /stackd_t_memory_bytes\{process="a"\} 7\n/);
  exits.setTotal(10);
  counter.reset();
  counter.reset();
  exits.inc();
  t.regex(await body(), /stackd_t_exits_total\{process="a"\} 1\n/, 'from 0 after being dropped');
  const lines = (await body()).split('\n').filter((line) => line.includes('{'));
  t.is(new Set(lines).size, lines.length, 'one line per series');
  t.is((await run('promtool', ['check', 'metrics'], await body())).code, 0);
});

test('a large family renders over several turns of the event loop, and a write during it shows next time', async (t) => {
  const registry = new ExpositionRegistry(logger);
  const gauge = registry.gauge<'process'>('t', {
    name: 'stackd_t_level',
    help: 'Level',
    labelNames: ['process'],
  });
  const count = 30_000;
  for (let index = 0; index < count; index += 1) gauge.set({ process: `p${index}` }, index);
  let turns = 0;
  let rendering = true;
  const turn = (): void => {
    turns += 1;
    // Written while the render is under way: either the render saw it, or the next one must.
    if (turns === 1) gauge.set({ process: 'p0' }, -1);
    if (rendering) setImmediate(turn);
  };
  setImmediate(turn);
  const first = (await registry.render(undefined)).body;
  rendering = false;
  t.true(turns > 1, `the loop turned ${turns} times during the render`);
  t.is(first.split('\n').filter((line) => line.startsWith('stackd_t_level{')).length, count);
  const second = await registry.render(undefined);
  t.regex(second.body, /stackd_t_level\{process="p0"\} -1\n/);
  t.is(second.parts.join(''), second.body, 'the parts are the body');
});

test('a reset with every series set again drops none; one not set again is dropped at the next', async (t) => {
  const registry = new ExpositionRegistry(logger);
  const gauge = registry.gauge<'process'>('t', {
    name: 'stackd_t_up',
    help: 'Up',
    labelNames: ['process'],
  });
  const body = async (): Promise<string> => (await registry.render(undefined)).body;
  gauge.set({ process: 'a' }, 1);
  gauge.set({ process: 'b' }, 1);
  gauge.reset();
  gauge.set({ process: 'a' }, 1);
  gauge.set({ process: 'b' }, 1);
  gauge.reset();
  gauge.set({ process: 'a' }, 1);
  t.regex(await body(), /stackd_t_up\{process="a"\} 1\n/);
  t.false((await body()).includes('process="b"'), 'b was not set since the last reset');
  gauge.reset();
  gauge.reset();
  t.false((await body()).includes('stackd_t_up{'), 'two resets in a row drop every series');
});
