import test from 'ava';
import { orderPlugins, type PluginNode } from '../../../core/plugins/plugin-graph.js';

const node = (name: string, dependsOn: string[] = []): PluginNode => ({ name, dependsOn });

test('dependencies come first; independent plugins keep their order', (t) => {
  const ordered = orderPlugins(
    [node('graph', ['supervisor']), node('auth'), node('supervisor')],
    (item) => item,
  );
  t.deepEqual(
    ordered.map((item) => item.name),
    ['supervisor', 'graph', 'auth'],
  );
});

test('a cycle is named', (t) => {
  t.throws(
    () => orderPlugins([node('a', ['b']), node('b', ['c']), node('c', ['a'])], (item) => item),
    { message: 'STACKD_DEPENDENCY_CYCLE: plugin dependency cycle: a → b → c → a' },
  );
});

test('a missing dependency is named', (t) => {
  t.throws(() => orderPlugins([node('a', ['ghost'])], (item) => item), {
    message: "STACKD_DEPENDENCY_MISSING: plugin 'a' depends on 'ghost', which is not loaded",
  });
});
