/** The OpenAPI document describes every route; /docs and /redoc are served from local assets. */
import test from 'ava';
import { HELLO_PLUGIN_DIR } from '../../helpers/fixture-paths.js';
import { request } from '../../helpers/http.js';
import { startHost, type RunningHostProcess } from '../../helpers/start-host.js';

let host: RunningHostProcess;

test.before(async () => {
  host = await startHost({ plugins: [HELLO_PLUGIN_DIR] });
});
test.after.always(async () => {
  await host?.stop();
});

test('the document is OpenAPI 3.1 with bearer security and the error body', async (t) => {
  const doc = (await request(host.url, '/openapi.json')).body;
  t.is(doc.openapi, '3.1.0');
  t.deepEqual(doc.components.securitySchemes.bearerAuth, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
  });
  t.deepEqual(Object.keys(doc.components.schemas.ErrorBody.properties).sort(), [
    'code',
    'detail',
    'field',
  ]);
});

test('every operation has a summary, responses and security', async (t) => {
  const doc = (await request(host.url, '/openapi.json')).body;
  let operations = 0;
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      operations += 1;
      t.truthy(operation.summary, `${method} ${path} has a summary`);
      t.truthy(operation.responses, `${method} ${path} has responses`);
      t.true(Array.isArray(operation.security), `${method} ${path} states its security`);
    }
  }
  t.true(operations >= 10);
});

test('a route carries its parameters, body schema, response schemas and errors', async (t) => {
  const doc = (await request(host.url, '/openapi.json')).body;
  const echo = doc.paths['/hello/echo'].post;
  t.is(echo.requestBody.content['application/json'].schema.properties.name.minLength, 3);
  t.truthy(echo.responses['200'].content['application/json'].schema.properties.text);
  t.truthy(echo.responses['422']);
  t.truthy(echo.responses['401']);
  t.deepEqual(echo.security, [{ bearerAuth: [] }]);
  const item = doc.paths['/hello/items/{item_id}'].get;
  t.deepEqual(
    item.parameters.map((parameter: { name: string; in: string; required: boolean }) => [
      parameter.name,
      parameter.in,
      parameter.required,
    ]),
    [
      ['item_id', 'path', true],
      ['verbose', 'query', false],
    ],
  );
  t.truthy(item.responses['201']);
  t.deepEqual(doc.paths['/health'].get.security, [], 'health is open');
});

test('streams are documented with their message schema', async (t) => {
  const doc = (await request(host.url, '/openapi.json')).body;
  const stream = doc.paths['/ws/hello'].get;
  t.true(stream['x-websocket']);
  t.truthy(stream.responses['101'].content['application/json'].schema.properties.text);
  t.true(stream.parameters.some((parameter: { name: string }) => parameter.name === 'token'));
});

test('/docs and /redoc serve HTML whose assets load locally', async (t) => {
  for (const page of ['/docs', '/redoc', '/api/docs']) {
    const response = await request(host.url, page);
    t.is(response.status, 200);
    t.regex(response.headers.get('content-type') ?? '', /text\/html/);
    const assets = [...response.text.matchAll(/(?:src|href)="([^"]+)"/g)].map(
      (match) => match[1] as string,
    );
    t.true(assets.length >= 2);
    for (const asset of assets) {
      const loaded = await fetch(new URL(asset, host.url));
      t.is(loaded.status, 200, `${page} → ${asset}`);
    }
  }
  t.regex(
    (await request(host.url, '/redoc')).text,
    /"supportedSubmitMethods":\[\]/,
    'the reference view is read-only',
  );
});
