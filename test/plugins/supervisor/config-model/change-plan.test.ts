/** The plan of a configuration change, decided from the documents and the running state. */
import test from 'ava';
import {
  planChange,
  type PlanContext,
} from '../../../../plugins/supervisor/config-model/change-plan.js';

const running = (names: string[], dependencies: Record<string, string[]> = {}): PlanContext => ({
  isRunning: (name) => names.includes(name),
  dependencies: () => dependencies,
});

const block = (name: string, extra: Record<string, unknown> = {}) => ({
  process_name: name,
  enabled: true,
  command: ['sleep', '1000'],
  ...extra,
});

test('a removed instance of a running process is stopped; of a stopped one, nothing', (t) => {
  const previous = { arr: { instances: { One: block('Arr One'), Two: block('Arr Two') } } };
  const next = { arr: { instances: {} } };
  const plan = planChange(previous, next, running(['Arr One']));
  t.deepEqual(
    plan.processes.map((entry) => [entry.process_name, entry.action, entry.reason]),
    [
      ['Arr One', 'stop', 'its block is removed'],
      ['Arr Two', 'nothing', 'its block is removed; it is not running'],
    ],
  );
  t.deepEqual(plan.order, [{ process_name: 'Arr One', action: 'stop' }]);
});

test('restarts fan out through restart_dependents, transitively, dependencies first', (t) => {
  const previous = {
    db: block('Db', { restart_dependents: true }),
    api: block('Api', { restart_dependents: true }),
    web: block('Web'),
    lone: block('Lone'),
  };
  const next = structuredClone(previous);
  next.db.command = ['sleep', '2000'];
  const plan = planChange(
    previous,
    next,
    running(['Db', 'Api', 'Web', 'Lone'], { Api: ['Db'], Web: ['Api'], Lone: [] }),
  );
  t.deepEqual(
    plan.order.map((step) => step.process_name),
    ['Db', 'Api', 'Web'],
  );
  t.is(plan.processes.find((entry) => entry.process_name === 'Web')?.because_of, 'Api');
  t.is(plan.processes.find((entry) => entry.process_name === 'Lone')?.action, 'nothing');
});

test('no fan-out without restart_dependents, nor to a dependent that is not running', (t) => {
  const previous = { db: block('Db'), api: block('Api') };
  const next = structuredClone(previous);
  next.db.command = ['sleep', '2000'];
  t.deepEqual(planChange(previous, next, running(['Db', 'Api'], { Api: ['Db'] })).order, [
    { process_name: 'Db', action: 'restart' },
  ]);
  const fanning = { db: block('Db', { restart_dependents: true }), api: block('Api') };
  const changed = structuredClone(fanning);
  changed.db.command = ['sleep', '2000'];
  t.deepEqual(planChange(fanning, changed, running(['Db'], { Api: ['Db'] })).order, [
    { process_name: 'Db', action: 'restart' },
  ]);
});

test('stops run dependents first; a change to a stopped process waits for its next start', (t) => {
  const previous = { db: block('Db'), api: block('Api'), idle: block('Idle') };
  const next = {
    db: block('Db', { enabled: false }),
    api: block('Api', { enabled: false }),
    idle: block('Idle', { command: ['sleep', '5'] }),
  };
  const plan = planChange(previous, next, running(['Db', 'Api'], { Api: ['Db'] }));
  t.deepEqual(plan.order, [
    { process_name: 'Api', action: 'stop' },
    { process_name: 'Db', action: 'stop' },
  ]);
  t.like(
    plan.processes.find((entry) => entry.process_name === 'Idle'),
    {
      action: 'nothing',
      reason: 'command changed; applies at its next start',
    },
  );
});

test('reload-free fields restart nothing; a limit change goes into the running cgroup', (t) => {
  const previous = { web: block('Web') };
  const next = { web: block('Web', { stop_timeout: 3, memory_max: '512M' }) };
  const plan = planChange(previous, next, running(['Web']));
  t.like(plan.processes[0], { action: 'reload_free', fields: ['stop_timeout', 'memory_max'] });
  t.deepEqual(plan.order, []);
});
