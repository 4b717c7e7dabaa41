import test from 'ava';
import type { JsonRecord, ProcessState, ProcessSupervisor } from '../../../sdk/index.js';
import { GraphService, stateFunction } from '../../../plugins/graph/graph-service.js';
import { listGraphEntries } from '../../../plugins/graph/stack/stack-entries.js';
import { block, knowledge, memoryLogger } from './graph-fixtures.js';

test('the derived graph is cached until invalidated', (t) => {
  let reads = 0;
  let document: JsonRecord = { db: block('Db', { port: 1 }), api: block('Api') };
  const service = new GraphService({
    readDocument: () => {
      reads += 1;
      return document;
    },
    knowledge: () => knowledge(),
    supervisor: () => undefined,
    logger: memoryLogger(),
  });
  t.deepEqual(service.view('Api', 'runtime')?.linked_outgoing_rows, []);
  service.view('Db', 'runtime');
  service.planStartup(['Db', 'Api']);
  t.is(reads, 1);
  document = {
    db: block('Db', { port: 1 }),
    api: block('Api', { wait_for_url: 'http://127.0.0.1:1/' }),
  };
  t.deepEqual(service.view('Api', 'runtime')?.linked_outgoing_rows, []);
  service.invalidate();
  t.deepEqual(
    service.view('Api', 'runtime')?.linked_outgoing_rows.map((row) => row.process_name),
    ['Db'],
  );
  t.is(reads, 2);
});

test('an unknown process has no view and no parallel groups', (t) => {
  const service = new GraphService({
    readDocument: () => ({ db: block('Db') }),
    knowledge: () => knowledge(),
    supervisor: () => undefined,
    logger: memoryLogger(),
  });
  t.is(service.view('nope', 'all'), undefined);
  t.deepEqual(service.parallelGroups('nope', 'runtime'), []);
  t.deepEqual(service.parallelGroups('db', 'runtime'), [
    { id: 'core_target', label: 'Core target', type: 'parallel', members: ['Db'] },
  ]);
});

function supervisorWith(states: Record<string, ProcessState['status']>): ProcessSupervisor {
  // Only state() and states() matter to the graph; the rest of the contract is not called.
  const unused = (): never => {
    throw new Error('not used by the graph');
  };
  return {
    list: unused,
    find: unused,
    states: () =>
      Object.entries(states).map(([name, status]) => ({
        process_name: name,
        status,
        pid: null,
        exit_code: null,
        restarts: 0,
        started_at: null,
        reason: null,
      })),
    pidTree: unused,
    logFile: unused,
    start: unused,
    stop: unused,
    restart: unused,
    launch: unused,
    addStartPreparer: unused,
    state: (name) => {
      const status = states[name];
      return status === undefined
        ? undefined
        : {
            process_name: name,
            status,
            pid: null,
            exit_code: null,
            restarts: 0,
            started_at: null,
            reason: null,
          };
    },
  };
}

test('states: live status with a supervisor, enabled/disabled fallbacks, the API always running', (t) => {
  const entries = listGraphEntries(
    {
      stackd: { api_service: { process_name: 'stackd API' } },
      a: block('A'),
      b: block('B', { enabled: false }),
      c: block('C', { enabled: false }),
      d: block('D'),
    },
    new Map(),
  );
  const live = stateFunction(supervisorWith({ A: 'crashed', B: 'stopped', C: 'running' }));
  t.deepEqual(entries.map(live), ['running', 'crashed', 'disabled', 'running', 'unknown']);
  const offline = stateFunction(undefined);
  t.deepEqual(entries.map(offline), ['running', 'unknown', 'disabled', 'disabled', 'unknown']);
});

test('row states combine live states: running wins, missing when nothing is configured', (t) => {
  const service = new GraphService({
    readDocument: () => ({
      postgres: block('PostgreSQL'),
      zilean: block('Zilean'),
      sonarr: { instances: { A: block('Sonarr'), B: block('Sonarr B') } },
      prowlarr: block('Prowlarr'),
    }),
    knowledge: () => knowledge(),
    supervisor: () =>
      supervisorWith({
        PostgreSQL: 'running',
        Zilean: 'stopped',
        Sonarr: 'stopped',
        'Sonarr B': 'running',
      }),
    logger: memoryLogger(),
  });
  const zilean = service.view('Zilean', 'runtime');
  t.is(zilean?.dependency_rows[0]?.state, 'running');
  t.is(zilean?.startup_order.at(-1)?.state, 'stopped');
  const prowlarr = service.view('Prowlarr', 'runtime');
  t.deepEqual(
    prowlarr?.dependency_rows.map((row) => [row.key, row.state, row.process_count]),
    [['sonarr', 'running', 2]],
  );
  const postgres = service.view('PostgreSQL', 'runtime');
  t.deepEqual(postgres?.dependent_rows.find((row) => row.key === 'zilean')?.missing_deps, []);
});
