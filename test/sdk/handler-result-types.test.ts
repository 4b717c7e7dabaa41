/**
 * Compile-time checks: a handler's result is typed from its `schema.response`. Each
 * `@ts-expect-error` below fails the build if the sdk stops rejecting that shape, so this file
 * compiling is the test; the runtime assertions check the accepted shapes.
 */
import test from 'ava';
import { Type } from '@sinclair/typebox';
import { defineRoute, reply } from '../../sdk/index.js';

const Item = Type.Object({ name: Type.String() });

test('a plain return is the 200 body and reply(status, body) is checked per status', async (t) => {
  const plain = defineRoute({
    method: 'GET',
    path: '/items',
    summary: 'items',
    schema: { response: Item },
    handler: () => ({ name: 'a' }),
  });
  t.deepEqual(await plain.handler({} as never), { name: 'a' });

  const accepted = defineRoute({
    method: 'POST',
    path: '/jobs',
    summary: 'jobs',
    schema: { response: { 200: Item, 202: Type.Object({ job_id: Type.String() }) } },
    handler: () => reply(202, { job_id: 'j1' }),
  });
  t.deepEqual(await accepted.handler({} as never), {
    kind: 'json',
    status: 202,
    body: { job_id: 'j1' },
  });
});

test('undeclared shapes do not compile', (t) => {
  // @ts-expect-error `extra` is not in the response schema (reported as `undeclared_fields`)
  defineRoute({
    method: 'GET',
    path: '/extra',
    summary: 'a field the schema does not declare',
    schema: { response: Item },
    handler: () => ({ name: 'a', extra: 1 }),
  });
  defineRoute({
    method: 'GET',
    path: '/wrong-type',
    summary: 'a field of the wrong type',
    schema: { response: Item },
    // @ts-expect-error name must be a string
    handler: () => ({ name: 1 }),
  });
  defineRoute({
    method: 'GET',
    path: '/async-extra',
    summary: 'an async handler is checked the same way',
    schema: { response: Item },
    // @ts-expect-error the awaited body must match too
    handler: async () => Promise.resolve({ name: 2 }),
  });
  defineRoute({
    method: 'GET',
    path: '/status',
    summary: 'a status the schema does not declare',
    schema: { response: Item },
    // @ts-expect-error 201 is not a declared status
    handler: () => reply(201, { name: 'a' }),
  });
  defineRoute({
    method: 'GET',
    path: '/body',
    summary: 'a body that does not match its status',
    schema: { response: { 200: Item, 202: Type.Object({ job_id: Type.String() }) } },
    // @ts-expect-error the 202 body needs job_id
    handler: () => reply(202, { name: 'a' }),
  });
  t.pass('the file compiled, so each @ts-expect-error above caught its error');
});
