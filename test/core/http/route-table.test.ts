import test from 'ava';
import { Type } from '@sinclair/typebox';
import { RouteTable, responseSchemas } from '../../../core/http/route-table.js';
import { BootError } from '../../../core/errors/boot-error.js';
import { defineRoute, eraseRoute } from '../../../sdk/http.js';

const route = (method: 'GET' | 'POST', path: string) =>
  eraseRoute(
    defineRoute({
      method,
      path,
      summary: path,
      schema: { response: Type.Object({ ok: Type.Boolean() }) },
      handler: () => ({ ok: true }),
    }),
  );

test('a route is served at its path and its /api alias; the same method and shape collide', (t) => {
  const table = new RouteTable();
  table.add('a', route('GET', '/things/:id'));
  table.add('a', route('POST', '/things/:id'));
  const error = t.throws(() => table.add('b', route('GET', '/api/things/:other')), {
    instanceOf: BootError,
  });
  t.is(error?.code, 'STACKD_ROUTE_DUPLICATE');
  t.regex(error?.message ?? '', /of plugin 'b' collides with GET \/things\/:id of plugin 'a'/);
});

test('a path must start with a slash', (t) => {
  const error = t.throws(() => new RouteTable().add('a', route('GET', 'things')), {
    instanceOf: BootError,
  });
  t.is(error?.code, 'STACKD_ROUTE_INVALID');
});

test('a single response schema means 200; a map keeps its statuses', (t) => {
  t.deepEqual([...responseSchemas(route('GET', '/x')).keys()], [200]);
  const multi = eraseRoute(
    defineRoute({
      method: 'POST',
      path: '/jobs',
      summary: 'jobs',
      schema: { response: { 200: Type.Object({}), 202: Type.Object({}) } },
      handler: () => ({}),
    }),
  );
  t.deepEqual([...responseSchemas(multi).keys()].sort(), [200, 202]);
});
