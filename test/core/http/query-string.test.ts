import test from 'ava';
import { Type } from '@sinclair/typebox';
import { parseQuery } from '../../../core/http/query-string.js';

test('repeated keys become arrays; array-typed properties are arrays even once', (t) => {
  const schema = Type.Object({ tags: Type.Array(Type.String()), name: Type.String() });
  t.deepEqual(parseQuery('tags=a&name=x', schema), { tags: ['a'], name: 'x' });
  t.deepEqual(parseQuery('name=x&name=y', schema), { name: ['x', 'y'] });
  t.deepEqual(parseQuery('a=%20b&c', undefined), { a: ' b', c: '' });
});
