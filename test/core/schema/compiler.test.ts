import test from 'ava';
import { Type } from '@sinclair/typebox';
import { compileSchema, pointerToField } from '../../../core/schema/compiler.js';
import { StringEnum } from '../../../sdk/schema.js';

test('defaults are applied and query strings coerced', (t) => {
  const schema = compileSchema(
    Type.Object({
      n: Type.Integer({ default: 5 }),
      flag: Type.Boolean(),
      mode: StringEnum(['a', 'b'] as const, { default: 'a' }),
    }),
  );
  const parsed = schema.parse({ flag: 'true' }, { coerce: true });
  t.deepEqual(parsed, { ok: true, value: { n: 5, flag: true, mode: 'a' } });
});

test('the first failure names the field as a dotted path', (t) => {
  const schema = compileSchema(
    Type.Object({ outer: Type.Object({ list: Type.Array(Type.Integer()) }) }),
  );
  const parsed = schema.parse({ outer: { list: [1, 'x'] } });
  t.false(parsed.ok);
  if (!parsed.ok) t.is(parsed.failure.field, 'outer.list.1');
  t.is(pointerToField('/a~1b/c'), 'a/b.c');
});

test('string enums reject values outside the list', (t) => {
  const schema = compileSchema(Type.Object({ scope: StringEnum(['runtime', 'all'] as const) }));
  const parsed = schema.parse({ scope: 'everything' });
  t.false(parsed.ok);
  if (!parsed.ok)
    t.deepEqual(parsed.failure, { field: 'scope', message: 'Expected one of: runtime, all' });
  t.true(schema.parse({ scope: 'all' }).ok);
});
