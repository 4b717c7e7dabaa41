import test from 'ava';
import { dependentsOf, runOrdered } from '../../../../plugins/supervisor/runtime/ordered-run.js';

function recorder(fail: readonly string[] = []) {
  const began: string[] = [];
  const ended: string[] = [];
  const action = async (name: string): Promise<boolean> => {
    began.push(name);
    await new Promise((resolve) => setImmediate(resolve));
    ended.push(name);
    return !fail.includes(name);
  };
  return { began, ended, action };
}

test('a process runs only after its prerequisites ended; independent ones run together', async (t) => {
  const deps: Record<string, string[]> = { web: ['db'], client: ['web'], worker: [] };
  const { began, ended, action } = recorder();
  const results = await runOrdered(['client', 'web', 'db', 'worker'], {
    before: (name) => deps[name] ?? [],
    action,
  });
  t.true([...results.values()].every(Boolean));
  t.true(ended.indexOf('db') < began.indexOf('web'));
  t.true(ended.indexOf('web') < began.indexOf('client'));
  // worker and db have no prerequisites: both begin before either ends.
  t.deepEqual(began.slice(0, 2).sort(), ['db', 'worker']);
});

test('a failed prerequisite still unblocks its dependents and is reported', async (t) => {
  const { began, action } = recorder(['db']);
  const reported: string[] = [];
  const results = await runOrdered(['web', 'db'], {
    before: (name) => (name === 'web' ? ['db'] : []),
    action,
    onFailedPrerequisite: (name, failed) => reported.push(`${name}<-${failed.join(',')}`),
  });
  t.deepEqual(began, ['db', 'web']);
  t.false(results.get('db'));
  t.true(results.get('web'));
  t.deepEqual(reported, ['web<-db']);
});

test('a cycle does not deadlock: the closing edge is dropped and reported', async (t) => {
  const deps: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'] };
  const { began, action } = recorder();
  const cycles: string[] = [];
  const results = await runOrdered(['a', 'b', 'c'], {
    before: (name) => deps[name] ?? [],
    action,
    onCycle: (path) => cycles.push(path.join('>')),
  });
  t.is(results.size, 3);
  t.deepEqual(began, ['c', 'b', 'a']);
  t.deepEqual(cycles, ['a>b>c>a']);
});

test('names outside the set are ignored; an aborted run skips what has not begun', async (t) => {
  const controller = new AbortController();
  const began: string[] = [];
  const results = await runOrdered(['a', 'b'], {
    before: (name) => (name === 'b' ? ['a', 'elsewhere'] : []),
    action: (name) => {
      began.push(name);
      controller.abort();
      return Promise.resolve(true);
    },
    signal: controller.signal,
  });
  t.deepEqual(began, ['a']);
  t.false(results.get('b'));
});

test('dependentsOf inverts the relation (the shutdown order)', (t) => {
  const dependents = dependentsOf(['web', 'client', 'db'], (name) =>
    name === 'web' ? ['db'] : name === 'client' ? ['web', 'db'] : [],
  );
  t.deepEqual(dependents('db'), ['web', 'client']);
  t.deepEqual(dependents('web'), ['client']);
  t.deepEqual(dependents('client'), []);
});
