/**
 * GET /process/dependency-graph against the real host with only the graph plugin loaded (no
 * supervisor: states are `unknown`/`disabled`). One host serves every read-only test here.
 */
import test from 'ava';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';
import { request } from '../../helpers/http.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';
import type { DependencyGraphResponse } from '../../../plugins/graph/schemas.js';
import type { ErrorBody } from '../../../sdk/index.js';

const GRAPH_PLUGIN = builtinPlugin('graph');
const idle = ['node', '-e', 'setInterval(()=>{},1000)'];
const proc = (name: string, fields: Record<string, unknown> = {}) => ({
  enabled: true,
  process_name: name,
  command: idle,
  ...fields,
});

const config = {
  stackd: {
    api_service: { enabled: true, process_name: 'stackd API', host: '127.0.0.1', port: 8000 },
    graph: { extra_dependencies: { web: ['postgres'] } },
  },
  postgres: proc('PostgreSQL', { port: 55432 }),
  zilean: proc('Zilean', { port: 58182 }),
  plex: proc('Plex Media Server', { port: 52400 }),
  seerr: {
    instances: {
      Main: proc('Seerr Main', {
        port: 55055,
        wait_for_url: [{ url: 'http://127.0.0.1:52400/identity', core_service: 'plex' }],
      }),
    },
  },
  sonarr: {
    instances: {
      Default: proc('Sonarr', { port: 58989 }),
      Anime: proc('Sonarr Anime', { port: 58990, enabled: false }),
    },
  },
  web: proc('Web'),
  // A waits for B's port and B for A's: a cycle.
  loop_a: proc('Loop A', { port: 51001, wait_for_url: 'http://127.0.0.1:51002/' }),
  loop_b: proc('Loop B', { port: 51002, wait_for_url: 'http://127.0.0.1:51001/' }),
};

let host: RunningHostProcess;

test.before(async () => {
  host = await startHost({ plugins: [GRAPH_PLUGIN], config });
});

test.after.always(async () => {
  await host?.stop();
});

const graphOf = (query: string) =>
  request<DependencyGraphResponse>(host.url, `/process/dependency-graph?${query}`);
const graphError = (query: string) =>
  request<ErrorBody>(host.url, `/process/dependency-graph${query}`);

test('the full response for a process with a hard dependency', async (t) => {
  const response = await graphOf('process_name=Seerr%20Main');
  t.is(response.status, 200);
  const body = response.body;
  t.deepEqual(Object.keys(body).sort(), [
    'config_key',
    'context',
    'cycles',
    'dependency_rows',
    'dependency_truth_table',
    'dependent_rows',
    'edges',
    'linked_incoming_rows',
    'linked_outgoing_rows',
    'nodes',
    'parallel_groups',
    'process_name',
    'scope',
    'startup_order',
    'statuses',
    'updated_at',
  ]);
  t.is(body.process_name, 'Seerr Main');
  t.is(body.config_key, 'seerr');
  t.is(body.scope, 'runtime');
  t.deepEqual(body.context, {
    mode: 'core',
    key: 'seerr',
    core: { key: 'seerr', name: 'Seerr', dependencies: [] },
  });
  t.deepEqual(body.edges, [
    {
      source: 'Plex Media Server',
      target: 'Seerr Main',
      signals: ['conditional_startup_map', 'wait_for_url'],
      strength: 'hard_runtime',
      classification: 'hard',
    },
  ]);
  t.deepEqual(
    body.startup_order.map((step: { key: string; state: string }) => [step.key, step.state]),
    [
      ['plex', 'unknown'],
      ['seerr', 'unknown'],
    ],
  );
  t.deepEqual(body.parallel_groups, [
    {
      id: 'pre_core',
      label: 'Parallel prerequisites',
      type: 'parallel',
      members: ['Plex Media Server'],
    },
    { id: 'core_target', label: 'Core target', type: 'parallel', members: ['Seerr Main'] },
  ]);
  t.is(Object.keys(body.dependency_truth_table).length, 12);
  t.deepEqual(body.dependency_truth_table.documented_integration.classification, 'linkage');
  t.regex(body.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  t.deepEqual(body.cycles, []);
});

test('scope=all adds the documented integrations as soft edges', async (t) => {
  const response = await graphOf('process_name=Seerr%20Main&scope=all');
  t.is(response.status, 200);
  t.deepEqual(
    response.body.edges
      .filter((edge: { strength: string }) => edge.strength === 'soft_linkage')
      .map((edge: { source: string }) => edge.source),
    ['Sonarr Anime', 'Sonarr'],
  );
  t.deepEqual(
    response.body.nodes.map((node: { id: string; state: string }) => [node.id, node.state]),
    [
      ['Plex Media Server', 'unknown'],
      ['Seerr Main', 'unknown'],
      // Sorted by label: "sonarr instances Anime" before "sonarr instances Default".
      ['Sonarr Anime', 'disabled'],
      ['Sonarr', 'unknown'],
    ],
  );
});

test('lookup ignores case and accepts display names and aliases, also under /api', async (t) => {
  for (const name of ['seerr%20main', 'SEERR%20MAIN', 'postgresql', 'plex'])
    t.is((await graphOf(`process_name=${name}`)).status, 200, name);
  const viaApi = await request<DependencyGraphResponse>(
    host.url,
    '/api/process/dependency-graph?process_name=postgresql',
  );
  t.is(viaApi.body.process_name, 'PostgreSQL');
  t.deepEqual(
    viaApi.body.linked_incoming_rows.map((row: { process_name: string; signals: string[] }) => [
      row.process_name,
      row.signals,
    ]),
    [
      ['Web', ['non_core_dependency_map']],
      ['Zilean', ['conditional_startup_map', 'non_core_dependency_map']],
    ],
  );
});

test('an unknown process is 404', async (t) => {
  const response = await graphError('?process_name=Nobody');
  t.is(response.status, 404);
  t.is(response.body.code, 'PROCESS_NOT_FOUND');
  t.regex(response.body.detail, /Nobody/);
});

test('a bad scope or a missing process_name is 422 naming the field', async (t) => {
  const badScope = await graphError('?process_name=Zilean&scope=everything');
  t.is(badScope.status, 422);
  t.is(badScope.body.field, 'scope');
  const missing = await graphError('');
  t.is(missing.status, 422);
  t.is(missing.body.field, 'process_name');
  const blank = await graphError('?process_name=%20%20');
  t.is(blank.status, 422);
  t.is(blank.body.field, 'process_name');
});

test('a cycle is named in the response and in the log, and the graph still answers', async (t) => {
  const response = await graphOf('process_name=loop%20a');
  t.is(response.status, 200);
  t.deepEqual(response.body.cycles, [['Loop A', 'Loop B']]);
  t.deepEqual(
    response.body.edges.map((edge: { source: string; target: string }) => [
      edge.source,
      edge.target,
    ]),
    [
      ['Loop B', 'Loop A'],
      ['Loop A', 'Loop B'],
    ],
  );
  t.true(
    await eventually(() => /dependency cycle among Loop A, Loop B/.test(host.output()), {
      what: 'the cycle warning in the log',
    }),
  );
});

test('the route is in the OpenAPI document with its query enum', async (t) => {
  interface Operation {
    parameters: { name: string; schema: { enum?: string[] } }[];
  }
  const response = await request<{ paths: Record<string, { get?: Operation }> }>(
    host.url,
    '/openapi.json',
  );
  t.is(response.status, 200);
  const operation = response.body.paths['/process/dependency-graph']?.get;
  const scope = operation?.parameters.find((parameter) => parameter.name === 'scope');
  t.deepEqual(scope?.schema.enum, ['runtime', 'all']);
});

test('a malformed stackd.graph slice stops the boot naming the field', async (t) => {
  const error = await t.throwsAsync(
    startHost({
      plugins: [GRAPH_PLUGIN],
      config: { stackd: { graph: { extra_dependencies: { web: 'postgres' } } } },
    }),
  );
  t.regex(error?.message ?? '', /stackd\.graph\.extra_dependencies\.web/);
});
