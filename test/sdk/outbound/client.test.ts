import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import {
  isOutboundRefused,
  OutboundClient,
  outboundSettingsOf,
  selfAddressOf,
} from '../../../sdk/index.js';

interface CountingServer {
  readonly server: Server;
  readonly port: number;
  connections: number;
}

/** A real server on 127.0.0.1 counting the TCP connections it accepts. */
async function serve(
  handler: (
    url: string,
    respond: (status: number, headers?: Record<string, string>) => void,
  ) => void,
): Promise<CountingServer> {
  const server = createServer((req, res) =>
    handler(req.url ?? '/', (status, headers = {}) => {
      res.writeHead(status, headers);
      res.end('ok');
    }),
  );
  const state = { server, port: 0, connections: 0 };
  server.on('connection', () => (state.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  return state;
}

async function close(server: CountingServer): Promise<void> {
  server.server.closeAllConnections();
  await new Promise((resolve) => server.server.close(resolve));
}

test('a 302 to the metadata address is refused without connecting to it', async (t) => {
  const redirector = await serve((_url, respond) =>
    respond(302, { location: 'http://169.254.169.254/latest/meta-data/' }),
  );
  const client = new OutboundClient();
  t.teardown(async () => {
    await client.close();
    await close(redirector);
  });
  const dispatcher = await client.dispatcher();
  const error = await t.throwsAsync(
    request(`http://127.0.0.1:${redirector.port}/start`, { dispatcher }),
  );
  t.true(isOutboundRefused(error), String(error));
  t.regex(String(error?.message ?? ''), /169\.254\.169\.254.*metadata/);
  t.is(redirector.connections, 1);
});

test("a redirect to stackd's own port is refused: the server there sees no connection", async (t) => {
  const stackd = await serve((_url, respond) => respond(200));
  const redirector = await serve((_url, respond) =>
    respond(302, { location: `http://[::ffff:127.0.0.1]:${stackd.port}/api/auth/disable` }),
  );
  const client = new OutboundClient(
    () => outboundSettingsOf({}),
    () => selfAddressOf(`http://127.0.0.1:${stackd.port}`),
  );
  t.teardown(async () => {
    await client.close();
    await close(redirector);
    await close(stackd);
  });
  const dispatcher = await client.dispatcher();
  const error = await t.throwsAsync(
    request(`http://127.0.0.1:${redirector.port}/`, { dispatcher }),
  );
  t.true(isOutboundRefused(error), String(error));
  t.is(stackd.connections, 0);
  // Straight at it, by name (resolved, then checked) and by address.
  for (const url of [`http://localhost:${stackd.port}/`, `http://127.0.0.1:${stackd.port}/`]) {
    const direct = await t.throwsAsync(request(url, { dispatcher }));
    t.true(isOutboundRefused(direct), url);
  }
  t.is(stackd.connections, 0);
});

test('allowed redirects are followed, each hop checked; loopback can be switched off', async (t) => {
  const target = await serve((_url, respond) => respond(200));
  const redirector = await serve((_url, respond) =>
    respond(302, { location: `http://localhost:${target.port}/final` }),
  );
  let settings = outboundSettingsOf({});
  const client = new OutboundClient(
    () => settings,
    () => null,
  );
  t.teardown(async () => {
    await client.close();
    await close(redirector);
    await close(target);
  });
  const dispatcher = await client.dispatcher({ maxRedirections: 2 });
  const answer = await request(`http://127.0.0.1:${redirector.port}/`, { dispatcher });
  t.is(answer.statusCode, 200);
  await answer.body.text();
  t.is(target.connections, 1);
  settings = outboundSettingsOf({ stackd: { outbound: { allow_loopback: false } } });
  const fresh = new OutboundClient(
    () => settings,
    () => null,
  );
  t.teardown(() => fresh.close());
  const refused = await t.throwsAsync(
    request(`http://127.0.0.1:${target.port}/`, { dispatcher: await fresh.dispatcher() }),
  );
  t.true(isOutboundRefused(refused));
  t.is(target.connections, 1);
});

test('checkUrl answers 422 naming the field for a forbidden literal', (t) => {
  const client = new OutboundClient(undefined, () => selfAddressOf('http://127.0.0.1:8000'));
  for (const url of [
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://0251.0376.0251.0376/',
    'http://127.0.0.1:8000/api/auth/disable',
  ]) {
    const error = t.throws(() => client.checkUrl(url, 'config.url'));
    t.like(error, { status: 422, code: 'URL_FORBIDDEN', field: 'config.url' }, url);
  }
  t.is(client.checkUrl('http://127.0.0.1:11434/', 'config.url').port, '11434');
});
