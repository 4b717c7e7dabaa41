import test from 'ava';
import type { JsonRecord } from '../../../sdk/index.js';
import { extensionsOf, validateGraphSlice } from '../../../plugins/graph/config.js';
import { GraphService } from '../../../plugins/graph/graph-service.js';
import { buildKnowledge } from '../../../plugins/graph/knowledge/knowledge-build.js';
import { readShippedKnowledge } from '../../../plugins/graph/knowledge-files.js';
import { block, memoryLogger } from './graph-fixtures.js';

test('a valid or absent stackd.graph slice passes', (t) => {
  t.notThrows(() => validateGraphSlice({}));
  t.notThrows(() => validateGraphSlice({ stackd: {} }));
  t.notThrows(() =>
    validateGraphSlice({ stackd: { graph: { extra_dependencies: { web: ['db'] } } } }),
  );
});

const invalid: [string, unknown, string][] = [
  [
    'a list that is a string',
    { extra_dependencies: { web: 'db' } },
    'stackd.graph.extra_dependencies.web',
  ],
  ['an alias that is a number', { aliases: { db: 5 } }, 'stackd.graph.aliases.db'],
  ['a slice that is not an object', ['x'], 'stackd.graph'],
];
for (const [what, slice, field] of invalid)
  test(`stackd.graph with ${what} is rejected naming ${field}`, (t) => {
    const error = t.throws(() => validateGraphSlice({ stackd: { graph: slice } }));
    t.is((error as { status?: number } | undefined)?.status, 422);
    t.is((error as { field?: string } | undefined)?.field, field);
  });

test('extensions default to empty maps and take what the slice gives', (t) => {
  t.deepEqual(extensionsOf({}).extra_dependencies, {});
  const extensions = extensionsOf({ stackd: { graph: { aliases: { database: 'db' } } } });
  t.deepEqual(extensions.aliases, { database: 'db' });
  t.deepEqual(extensions.extra_integrations, {});
});

test('a changed slice applies once the graph is invalidated', (t) => {
  const shipped = readShippedKnowledge();
  let document: JsonRecord = { db: block('Db'), web: block('Web') };
  const service = new GraphService({
    readDocument: () => document,
    knowledge: (current) => buildKnowledge(shipped, extensionsOf(current)),
    supervisor: () => undefined,
    logger: memoryLogger(),
  });
  t.deepEqual(service.planStartup(['Web', 'Db']).groups, [['Web', 'Db']]);
  document = {
    ...document,
    stackd: { graph: { extra_dependencies: { web: ['db'] }, aliases: { database: 'db' } } },
  };
  service.invalidate();
  t.deepEqual(service.planStartup(['Web', 'Db']).groups, [['Db'], ['Web']]);
  t.is(service.find('DATABASE')?.process_name, 'Db');
});
