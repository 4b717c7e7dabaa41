import test from 'ava';
import { bootErrorCode } from '../../../core/errors/boot-error.js';
import { expandPluginSpecs } from '../../../core/plugins/plugin-specs.js';

const BUILTINS = ['auth', 'supervisor'];

test('no list loads every built-in; a plain list is the whole set, repeats kept', (t) => {
  t.deepEqual(expandPluginSpecs(undefined, BUILTINS), BUILTINS);
  t.deepEqual(expandPluginSpecs(['./a.js', './a.js'], BUILTINS), ['./a.js', './a.js']);
});

test('a list starting with + adds to the built-ins', (t) => {
  t.deepEqual(expandPluginSpecs(['+./a.js', 'b', '+auth'], BUILTINS), [
    'auth',
    'supervisor',
    './a.js',
    'b',
  ]);
});

test('a + after a plain first item is refused', (t) => {
  const error = t.throws(() => expandPluginSpecs(['auth', '+./a.js'], BUILTINS));
  t.is(bootErrorCode(error), 'STACKD_PLUGIN_INVALID');
  t.throws(() => expandPluginSpecs(['+'], BUILTINS), { message: /empty plugin name/ });
});
