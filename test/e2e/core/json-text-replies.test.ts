/** JSON written in advance (jsonTextReply) is sent as is, and checked like any JSON reply. */
import { join } from 'node:path';
import test from 'ava';
import { request } from '../../helpers/http.js';
import { FIXTURES_DIR, startHost, type RunningHostProcess } from '../../helpers/start-host.js';

let host: RunningHostProcess;

test.before(async () => {
  host = await startHost({ plugins: [join(FIXTURES_DIR, 'plugins', 'json-text.js')] });
});
test.after.always(async () => {
  await host?.stop();
});

test('parts are joined into one JSON body with its content type and length', async (t) => {
  const response = await request(host.url, '/json-text/parts');
  t.is(response.status, 200);
  t.is(response.text, '{"count":42}');
  t.is(response.headers.get('content-type'), 'application/json; charset=utf-8');
  t.is(response.headers.get('content-length'), '12');
});

test('a body of one part is sent as it is, again and again', async (t) => {
  for (let round = 0; round < 3; round += 1) {
    const response = await request(host.url, '/json-text/whole');
    t.is(response.status, 200);
    t.is(response.text, '{"count":7}');
    t.is(response.headers.get('content-length'), '11');
  }
});

test('text that drifts from the schema fails loudly while validation is on', async (t) => {
  const response = await request(host.url, '/json-text/drift');
  t.is(response.status, 500);
  t.is(response.body.code, 'INTERNAL_RESPONSE_INVALID');
  t.is(response.body.field, 'count');
});

test('text that is not JSON fails loudly while validation is on', async (t) => {
  const response = await request(host.url, '/json-text/broken');
  t.is(response.status, 500);
  t.is(response.body.code, 'INTERNAL_RESPONSE_INVALID');
  t.is(response.body.field, 'body');
});
