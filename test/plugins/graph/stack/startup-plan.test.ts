import test from 'ava';
import {
  planWaves,
  stronglyConnectedComponents,
} from '../../../../plugins/graph/stack/startup-plan.js';
import { block, memoryLogger, serviceOf } from '../graph-fixtures.js';

test('diamond: the top first, the two sides together, the bottom last', (t) => {
  // 0 ← 1, 0 ← 2, {1, 2} ← 3
  const plan = planWaves([[], [0], [0], [1, 2]]);
  t.deepEqual(plan.groups, [[0], [1, 2], [3]]);
  t.deepEqual(plan.cycles, []);
  t.deepEqual(plan.dependencies, [[], [0], [0], [1, 2]]);
});

test('chain: one wave per link, whatever the input order', (t) => {
  // 2 ← 0 ← 3 ← 1
  const plan = planWaves([[2], [3], [], [0]]);
  t.deepEqual(plan.groups, [[2], [0], [3], [1]]);
});

test('independent nodes share the first wave in input order', (t) => {
  t.deepEqual(planWaves([[], [], []]).groups, [[0, 1, 2]]);
});

test('a cycle is named, its inner edges are dropped, what depends on it still waits', (t) => {
  // 0 ↔ 1 (cycle), 1 ← 2, 3 standalone, 0 needs 4
  const plan = planWaves([[1, 4], [0], [1], [], []]);
  t.deepEqual(plan.cycles, [[0, 1]]);
  t.deepEqual(plan.dependencies, [[4], [], [1], [], []]);
  t.deepEqual(plan.groups, [
    [1, 3, 4],
    [0, 2],
  ]);
  t.is(plan.groups.flat().length, 5);
});

test('two cycles and a self-loop: self-loops are not cycles', (t) => {
  const plan = planWaves([[1], [2], [0], [3], [5], [4]]);
  t.deepEqual(plan.cycles, [
    [0, 1, 2],
    [4, 5],
  ]);
  t.deepEqual(plan.dependencies[3], []);
  t.deepEqual(plan.groups, [[0, 1, 2, 3, 4, 5]]);
});

test('duplicate and out-of-range dependencies are ignored', (t) => {
  const plan = planWaves([[], [0, 0, 7, -1]]);
  t.deepEqual(plan.dependencies, [[], [0]]);
  t.deepEqual(plan.groups, [[0], [1]]);
});

test('a 2000-node chain and a 100 000-node chain plan without deep recursion', (t) => {
  for (const size of [2000, 100_000]) {
    const deps = Array.from({ length: size }, (_, node) => (node === 0 ? [] : [node - 1]));
    const plan = planWaves(deps);
    t.is(plan.groups.length, size);
    t.deepEqual(plan.groups[size - 1], [size - 1]);
    t.deepEqual(plan.cycles, []);
  }
});

test('a 2000-node ring is one cycle', (t) => {
  const size = 2000;
  const deps = Array.from({ length: size }, (_, node) => [(node + 1) % size]);
  const components = stronglyConnectedComponents(deps);
  t.is(new Set(components).size, 1);
  const plan = planWaves(deps);
  t.is(plan.cycles.length, 1);
  t.is(plan.cycles[0]?.length, size);
  t.deepEqual(plan.groups.length, 1);
});

const webStack = {
  db: block('Db', { port: 5432 }),
  api: block('Api', { port: 8082, wait_for_url: 'http://127.0.0.1:5432/' }),
  web: block('Web', { port: 8081, wait_for_url: ['http://127.0.0.1:8082/health'] }),
  worker: block('Worker', { wait_for_url: 'http://127.0.0.1:8082/health' }),
  docs: block('Docs'),
};

test('planStartup: waves by process name, restricted to the planned set', (t) => {
  const plan = serviceOf(webStack).planStartup(['Web', 'Worker', 'Api', 'Db', 'Docs']);
  t.deepEqual(plan.groups, [['Db', 'Docs'], ['Api'], ['Web', 'Worker']]);
  t.deepEqual(plan.dependencies.Web, ['Api']);
  t.deepEqual(plan.cycles, []);
  // A dependency outside the set (disabled, say) does not hold anything back.
  const partial = serviceOf(webStack).planStartup(['Web', 'Worker']);
  t.deepEqual(partial.groups, [['Web', 'Worker']]);
  t.deepEqual(partial.dependencies, { Web: [], Worker: [] });
});

test('planStartup: unknown names start first, with no dependencies', (t) => {
  const plan = serviceOf(webStack).planStartup(['Api', 'Ghost', 'Db']);
  t.deepEqual(plan.groups, [['Ghost', 'Db'], ['Api']]);
});

test('planStartup: sibling instances (configured linkage) and soft links do not order the start', (t) => {
  const plan = serviceOf({
    sonarr: { instances: { A: block('Sonarr'), B: block('Sonarr 4K') } },
    seerr: block('Seerr'),
  }).planStartup(['Sonarr', 'Sonarr 4K', 'Seerr']);
  t.deepEqual(plan.groups, [['Sonarr', 'Sonarr 4K', 'Seerr']]);
});

test('planStartup: a cycle is reported and logged, and startup goes on', (t) => {
  const logger = memoryLogger();
  const service = serviceOf(
    {
      a: block('A', { port: 1, wait_for_url: 'http://127.0.0.1:2/' }),
      b: block('B', { port: 2, wait_for_url: 'http://127.0.0.1:1/' }),
      c: block('C', { wait_for_url: 'http://127.0.0.1:2/' }),
    },
    logger,
  );
  const plan = service.planStartup(['A', 'B', 'C']);
  t.deepEqual(plan.cycles, [['A', 'B']]);
  t.deepEqual(plan.groups, [['A', 'B'], ['C']]);
  t.deepEqual(plan.dependencies, { A: [], B: [], C: ['B'] });
  t.true(logger.lines.some((line) => line.startsWith('warn') && line.includes('A, B')));
  t.deepEqual(service.view('A', 'runtime')?.cycles, [['A', 'B']]);
  t.deepEqual(service.view('C', 'runtime')?.cycles, []);
});
