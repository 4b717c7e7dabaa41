/** The request pipeline against a real host: validation, errors, aliases, limits, responses. */
import { connect } from 'node:net';
import test from 'ava';
import { HELLO_PLUGIN_DIR } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';

let host: RunningHostProcess;

test.before(async () => {
  host = await startHost({ plugins: [HELLO_PLUGIN_DIR] });
});
test.after.always(async () => {
  await host?.stop();
});

test('a valid body reaches the handler with defaults applied', async (t) => {
  const response = await request(host.url, '/hello/echo', { body: { name: 'bob', times: 2 } });
  t.is(response.status, 200);
  t.deepEqual(response.body, { text: 'hello bob, hello bob', mood: 'happy', principal: null });
});

test('a schema violation is 422 naming the field', async (t) => {
  const response = await request(host.url, '/hello/echo', { body: { name: 'bo' } });
  t.is(response.status, 422);
  t.is(response.body.field, 'name');
  t.is(response.body.code, 'REQUEST_INVALID');
  t.regex(response.body.detail, /name/);
});

test('a nested violation names the dotted path', async (t) => {
  const response = await request(host.url, '/hello/echo', {
    body: { name: 'bob', nested: { level: -1 } },
  });
  t.is(response.status, 422);
  t.is(response.body.field, 'nested.level');
});

test('a missing required field is named', async (t) => {
  const response = await request(host.url, '/hello/echo', { body: {} });
  t.is(response.status, 422);
  t.is(response.body.field, 'name');
});

test('malformed JSON is 422 naming the body, never a 5xx', async (t) => {
  for (const raw of ['{"name":', 'not json', '{"name": "bob",}', '\u0000\u0001']) {
    const response = await request(host.url, '/hello/echo', { rawBody: raw });
    t.is(response.status, 422, raw);
    t.is(response.body.code, 'REQUEST_MALFORMED_JSON');
    t.is(response.body.field, 'body');
  }
});

test('a wrong JSON type for the body is 422', async (t) => {
  const response = await request(host.url, '/hello/echo', { rawBody: '[1,2,3]' });
  t.is(response.status, 422);
  t.is(response.body.code, 'REQUEST_INVALID');
});

test('a typed error from a handler keeps its status, code and field', async (t) => {
  const response = await request(host.url, '/hello/echo', { body: { name: 'nobody' } });
  t.is(response.status, 422);
  t.deepEqual(response.body, {
    detail: 'nobody cannot be greeted',
    code: 'HELLO_NOBODY',
    field: 'name',
  });
});

test('an unexpected error is a generic 500 that leaks nothing', async (t) => {
  const response = await request(host.url, '/hello/broken');
  t.is(response.status, 500);
  t.is(response.body.code, 'INTERNAL_ERROR');
  t.false(response.text.includes('secret internal detail'));
  await eventually(() => host.output().includes('secret internal detail'), {
    what: 'the cause in the host log',
  });
});

test('a response that drifts from its schema fails loudly while validation is on', async (t) => {
  const response = await request(host.url, '/hello/drift');
  t.is(response.status, 500);
  t.is(response.body.code, 'INTERNAL_RESPONSE_INVALID');
  t.is(response.body.field, 'count');
});

test('path and query parameters are coerced and validated', async (t) => {
  t.deepEqual((await request(host.url, '/hello/items/7?verbose=true')).body, {
    id: 7,
    verbose: true,
  });
  t.deepEqual((await request(host.url, '/hello/items/7')).body, { id: 7, verbose: false });
  const bad = await request(host.url, '/hello/items/seven');
  t.is(bad.status, 422);
  t.is(bad.body.field, 'item_id');
  const badQuery = await request(host.url, '/hello/items/7?verbose=maybe');
  t.is(badQuery.status, 422);
  t.is(badQuery.body.field, 'verbose');
});

test('a handler may answer with another declared status', async (t) => {
  const response = await request(host.url, '/hello/items/99');
  t.is(response.status, 201);
  t.deepEqual(response.body, { created: true });
});

test('every route is served under /api and with a trailing slash', async (t) => {
  t.is((await request(host.url, '/api/hello/items/3')).body.id, 3);
  t.is((await request(host.url, '/hello/items/3/')).body.id, 3);
  t.is((await request(host.url, '/api/health')).body.status, 'healthy');
  t.is((await request(host.url, '/api/process/capabilities')).status, 200);
});

test('unknown routes are 404 and wrong methods 405, both with the error body', async (t) => {
  const missing = await request(host.url, '/nope');
  t.is(missing.status, 404);
  t.is(missing.body.code, 'HTTP_NOT_FOUND');
  const wrongMethod = await request(host.url, '/health', { method: 'DELETE' });
  t.is(wrongMethod.status, 405);
  t.is(wrongMethod.headers.get('allow'), 'GET, HEAD');
});

test('an oversized body is drained and refused with 413, so the client reads the answer', async (t) => {
  const response = await request(host.url, '/hello/echo', {
    rawBody: `{"name":"${'a'.repeat(2 * 1024 * 1024)}"}`,
  });
  t.is(response.status, 413);
  t.is(response.body.code, 'REQUEST_BODY_TOO_LARGE');
  t.is((await request(host.url, '/health')).status, 200, 'the host keeps serving');
});

test('a huge declared body is refused at once from its Content-Length and the connection closed', async (t) => {
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1', () => {
      socket.write(
        'POST /hello/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 104857600\r\n\r\n',
      );
    });
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
  t.regex(answer, /^HTTP\/1\.1 413 /);
  t.regex(answer, /REQUEST_BODY_TOO_LARGE/);
});

test('a streamed (chunked) oversized body is cut off at the limit with 413', async (t) => {
  const chunk = new TextEncoder().encode('a'.repeat(64 * 1024));
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= 40) {
        controller.close();
        return;
      }
      sent += 1;
      controller.enqueue(chunk);
    },
  });
  const response = await fetch(new URL('/hello/echo', host.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duplex: 'half',
  }).catch((error: unknown) => error);
  if (response instanceof Response) {
    t.is(response.status, 413);
  } else {
    // The server may close the connection while the client is still sending: also a refusal.
    t.truthy(response);
  }
  t.is((await request(host.url, '/health')).status, 200, 'the host keeps serving');
});

test('a body nested deeper than 64 levels is 422 before validation, on open routes too', async (t) => {
  const deep = `${'['.repeat(3000)}${']'.repeat(3000)}`;
  const response = await request(host.url, '/hello/echo', {
    rawBody: `{"name":"bob","nested":${deep}}`,
  });
  t.is(response.status, 422);
  t.is(response.body.code, 'REQUEST_TOO_DEEP');
  t.is(response.body.field, 'body');
  t.regex(response.body.detail, /64 levels/);
  const atLimit = `${'['.repeat(60)}${']'.repeat(60)}`;
  const shallow = await request(host.url, '/hello/echo', {
    rawBody: `{"name":"bob","extra":${atLimit}}`,
  });
  t.not(shallow.status, 500, 'nesting within the limit reaches validation');
  t.not(shallow.body.code, 'REQUEST_TOO_DEEP');
});

test('malformed percent-encoding in a path parameter or the query is 400 naming it', async (t) => {
  for (const bad of ['%ff', '%ED%A0%80', '%E2%82', '%']) {
    const param = await request(host.url, `/hello/items/${bad}`);
    t.is(param.status, 400, bad);
    t.is(param.body.code, 'REQUEST_MALFORMED_ENCODING');
    t.is(param.body.field, 'item_id');
    const query = await request(host.url, `/hello/items/1?q=${bad}`);
    t.is(query.status, 400, bad);
    t.is(query.body.field, 'query');
  }
  t.deepEqual((await request(host.url, '/hello/items/%31%32')).body, { id: 12, verbose: false });
});
