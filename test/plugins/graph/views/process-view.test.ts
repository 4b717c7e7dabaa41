/**
 * The original product's worked examples of the graph (docs/original-product.md §7), restated with our own configurations, plus
 * scope, edge direction, rows and lookups.
 */
import test from 'ava';
import type { JsonRecord } from '../../../../sdk/index.js';
import { block, instances, serviceOf, viewOf } from '../graph-fixtures.js';

const postgresStack: JsonRecord = {
  postgres: block('PostgreSQL', { port: 5432 }),
  zilean: block('Zilean', { port: 8182 }),
  pgadmin: block('pgAdmin4', { enabled: false, port: 5050 }),
};

test('example 1: Zilean waits for PostgreSQL', (t) => {
  const view = viewOf(postgresStack, 'Zilean');
  t.deepEqual(view.context, {
    mode: 'core',
    key: 'zilean',
    core: { key: 'zilean', name: 'Zilean', dependencies: [] },
  });
  t.deepEqual(
    view.startup_order.map((step) => [step.key, step.label]),
    [
      ['postgres', 'PostgreSQL'],
      ['zilean', 'Zilean'],
    ],
  );
  t.deepEqual(view.dependency_rows, [
    {
      key: 'postgres',
      label: 'PostgreSQL',
      state: 'unknown',
      process_count: 1,
      scoped: false,
      starter_process_name: 'PostgreSQL',
      signals: ['conditional_startup_map', 'non_core_dependency_map'],
      classification: 'hard',
      strength: 'hard_runtime',
    },
  ]);
  t.deepEqual(view.linked_outgoing_rows, [
    {
      process_name: 'PostgreSQL',
      key: 'postgres',
      label: 'postgres',
      state: 'unknown',
      signals: ['conditional_startup_map', 'non_core_dependency_map'],
      classification: 'hard',
      strength: 'hard_runtime',
    },
  ]);
  t.deepEqual(view.edges, [
    {
      source: 'PostgreSQL',
      target: 'Zilean',
      signals: ['conditional_startup_map', 'non_core_dependency_map'],
      strength: 'hard_runtime',
      classification: 'hard',
    },
  ]);
  t.deepEqual(
    view.parallel_groups.map((group) => [group.id, group.members]),
    [
      ['pre_core', ['PostgreSQL']],
      ['core_target', ['Zilean']],
    ],
  );
  t.is(view.updated_at, '2026-05-04T03:02:01Z');
});

test('example 2: PostgreSQL is a dependency; its dependents follow it, configured or not', (t) => {
  const view = viewOf(
    {
      ...postgresStack,
      riven_backend: block('Riven Backend'),
      riven_frontend: block('Riven Frontend'),
    },
    'postgresql',
  );
  t.is(view.process_name, 'PostgreSQL');
  t.is(view.context.mode, 'dependency');
  t.deepEqual(
    view.startup_order.map((step) => step.key),
    [
      'postgres',
      'riven_backend',
      'zilean',
      'pgadmin',
      'mediastorm',
      'traefik_proxy_admin',
      'authelia',
    ],
  );
  t.deepEqual(
    view.linked_incoming_rows.map((row) => [row.process_name, row.signals]),
    [
      ['pgAdmin4', ['conditional_startup_map', 'non_core_dependency_map']],
      ['Riven Backend', ['conditional_startup_map', 'core_service_map']],
      ['Zilean', ['conditional_startup_map', 'non_core_dependency_map']],
    ],
  );
  const missing = view.dependent_rows.find((row) => row.key === 'mediastorm');
  t.is(missing?.state, 'missing');
  t.deepEqual(missing?.missing_deps, ['postgres']);
  t.is(view.dependent_rows.find((row) => row.key === 'pgadmin')?.state, 'disabled');
  t.deepEqual(view.parallel_groups.at(-1), {
    id: 'post_core',
    label: 'Dependents',
    type: 'parallel',
    members: ['Riven Backend', 'Zilean', 'pgAdmin4'],
  });
  // Riven Frontend depends on Riven Backend, not on PostgreSQL: not a one-hop dependent.
  t.false(view.nodes.some((node) => node.id === 'Riven Frontend'));
});

const seerrStack: JsonRecord = {
  plex: block('Plex Media Server', { port: 32400 }),
  seerr: instances({
    Main: block('Seerr Main', {
      wait_for_url: [{ url: 'http://127.0.0.1:32400/identity', core_service: 'plex' }],
    }),
  }),
  sonarr: instances({
    Default: block('Sonarr', { port: 8989 }),
    Anime: block('Sonarr Anime', { port: 8990 }),
  }),
  radarr: instances({ Default: block('Radarr', { port: 7878 }) }),
};

test('example 3: Seerr waits for Plex; the edge points from Plex to Seerr', (t) => {
  const view = viewOf(seerrStack, 'Seerr Main');
  t.deepEqual(
    view.linked_outgoing_rows.map((row) => [row.process_name, row.signals, row.strength]),
    [['Plex Media Server', ['conditional_startup_map', 'wait_for_url'], 'hard_runtime']],
  );
  t.deepEqual(
    view.edges.map((edge) => [edge.source, edge.target]),
    [['Plex Media Server', 'Seerr Main']],
  );
});

test('example 3 with scope all: documented integrations add soft rows and edges', (t) => {
  const view = viewOf(seerrStack, 'Seerr Main', 'all');
  t.is(view.scope, 'all');
  const soft = view.linked_outgoing_rows.filter((row) => row.strength === 'soft_linkage');
  t.deepEqual(
    soft.map((row) => [row.process_name, row.signals, row.classification]),
    [
      ['Radarr', ['documented_integration'], 'linkage'],
      ['Sonarr Anime', ['documented_integration'], 'linkage'],
      ['Sonarr', ['documented_integration'], 'linkage'],
    ],
  );
  t.deepEqual(
    view.edges
      .filter((edge) => edge.strength === 'soft_linkage')
      .map((edge) => [edge.source, edge.target]),
    [
      ['Radarr', 'Seerr Main'],
      ['Sonarr Anime', 'Seerr Main'],
      ['Sonarr', 'Seerr Main'],
    ],
  );
  // Soft links never join the prerequisites; rows stay hard.
  t.deepEqual(view.parallel_groups[0]?.members, ['Plex Media Server']);
  t.true(view.dependency_rows.every((row) => row.strength === 'hard_runtime'));
});

test('example 4: Sonarr with a sibling instance and a Prowlarr waiting on both', (t) => {
  const view = viewOf(
    {
      ...seerrStack,
      prowlarr: instances({
        Default: block('Prowlarr', {
          wait_for_url: ['http://127.0.0.1:8989/ping', 'http://127.0.0.1:8990/ping'],
        }),
      }),
    },
    'Sonarr',
  );
  t.deepEqual(
    view.linked_incoming_rows.map((row) => [row.process_name, row.signals, row.strength]),
    [
      ['Prowlarr', ['conditional_startup_map', 'wait_for_url'], 'hard_runtime'],
      ['Sonarr Anime', ['core_service_fields'], 'hard_configured'],
    ],
  );
  t.deepEqual(
    view.dependent_rows.map((row) => [row.key, row.state]),
    [
      ['prowlarr', 'unknown'],
      ['bazarr', 'missing'],
      ['profilarr', 'missing'],
    ],
  );
  t.deepEqual(view.dependent_rows[0]?.missing_deps, ['radarr', 'sonarr']);
});

test('scope runtime leaves soft-only processes out of rows, nodes, edges and groups', (t) => {
  const stack = { zilean: block('Zilean'), sonarr: instances({ A: block('Sonarr') }) };
  const runtime = viewOf(stack, 'Zilean');
  t.deepEqual(runtime.linked_incoming_rows, []);
  t.deepEqual(runtime.edges, []);
  t.deepEqual(
    runtime.nodes.map((node) => node.id),
    ['Zilean'],
  );
  t.deepEqual(
    runtime.parallel_groups.map((group) => group.id),
    ['core_target'],
  );
  const all = viewOf(stack, 'Zilean', 'all');
  t.deepEqual(
    all.edges.map((edge) => [edge.source, edge.target, edge.signals]),
    [['Zilean', 'Sonarr', ['zilean_optional_integration']]],
  );
  t.deepEqual(all.parallel_groups.at(-1)?.members, ['Sonarr']);
});

test('startup order puts dependencies in start order among themselves', (t) => {
  const view = viewOf(
    {
      app: block('App', { wait_for_url: ['http://127.0.0.1:2/', 'http://127.0.0.1:1/'] }),
      cache: block('Cache', { port: 2, wait_for_url: 'http://127.0.0.1:1/' }),
      db: block('Db', { port: 1 }),
    },
    'App',
  );
  t.deepEqual(
    view.startup_order.map((step) => step.key),
    ['db', 'cache', 'app'],
  );
});

test('nodes are sorted by label and name every process once', (t) => {
  const view = viewOf(seerrStack, 'Sonarr', 'all');
  const ids = view.nodes.map((node) => node.id);
  t.deepEqual(ids, [...new Set(ids)]);
  t.deepEqual(
    view.nodes.map((node) => node.label),
    [...view.nodes.map((node) => node.label)].sort((a, b) => a.localeCompare(b)),
  );
  t.true(ids.includes('Sonarr'));
});

const lookups: [string, string | undefined][] = [
  ['Sonarr Anime', 'Sonarr Anime'],
  ['sonarr anime', 'Sonarr Anime'],
  ['  SONARR_ANIME ', 'Sonarr Anime'],
  ['sonarr instances Anime', 'Sonarr Anime'],
  ['plex media server', 'Plex Media Server'],
  ['plex', 'Plex Media Server'],
  ['radarr', 'Radarr'],
  ['nobody', undefined],
];
for (const [requested, expected] of lookups)
  test(`lookup "${requested}" finds ${expected ?? 'nothing'}`, (t) => {
    t.is(serviceOf(seerrStack).find(requested)?.process_name, expected);
  });
