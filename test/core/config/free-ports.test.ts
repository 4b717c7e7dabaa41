/** The demo's `{free_port:N}` placeholders: the wanted port, else a remembered one, else any. */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { join } from 'node:path';
import test from 'ava';
import { DEMO_WEB_HEADER, resolveFreePorts } from '../../../core/config/free-ports.js';
import { tempDir } from '../../helpers/start-host.js';

/** An HTTP server on a system-picked loopback port, answering with `headers`. */
async function holder(headers: Record<string, string> = {}): Promise<Server & { port: number }> {
  const server = createHttpServer((_request, response) => response.writeHead(200, headers).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no address');
  return Object.assign(server, { port: address.port });
}

const template = (port: number): string =>
  `{"port": "{free_port:${port}}", "url": "http://127.0.0.1:{free_port:${port}}/health"}`;

test('a free wanted port is used and remembered', async (t) => {
  const probe = await holder();
  const wanted = probe.port;
  await new Promise((resolve) => probe.close(resolve));
  const memory = join(tempDir(), 'demo-ports.json');
  const resolved = await resolveFreePorts(template(wanted), memory);
  t.deepEqual(JSON.parse(resolved.text), {
    port: wanted,
    url: `http://127.0.0.1:${wanted}/health`,
  });
  t.deepEqual(resolved.moved, []);
  t.deepEqual(JSON.parse(readFileSync(memory, 'utf8')), { [wanted]: wanted });
});

test('a wanted port in use moves, and the move is remembered', async (t) => {
  const stranger = await holder();
  t.teardown(() => stranger.close());
  const memory = join(tempDir(), 'demo-ports.json');
  const resolved = await resolveFreePorts(template(stranger.port), memory);
  const [move] = resolved.moved;
  t.is(move?.wanted, stranger.port);
  t.not(move?.used, stranger.port);
  t.deepEqual(JSON.parse(readFileSync(memory, 'utf8')), { [stranger.port]: move?.used });
});

test('a remembered port held by this demo web is kept, even when the wanted one is free again', async (t) => {
  const probe = await holder();
  const wanted = probe.port;
  await new Promise((resolve) => probe.close(resolve));
  const demo = await holder({ [DEMO_WEB_HEADER]: 'data-dir-id' });
  t.teardown(() => demo.close());
  const memory = join(tempDir(), 'demo-ports.json');
  writeFileSync(memory, JSON.stringify({ [wanted]: demo.port }));
  const resolved = await resolveFreePorts(template(wanted), memory, 'data-dir-id');
  t.deepEqual(resolved.moved, [{ wanted, used: demo.port }]);
  t.is((JSON.parse(resolved.text) as { port: number }).port, demo.port);
});

test("a remembered port held by another data dir's demo is not kept", async (t) => {
  const stranger = await holder();
  const otherDemo = await holder({ [DEMO_WEB_HEADER]: 'another-data-dir' });
  t.teardown(() => {
    stranger.close();
    otherDemo.close();
  });
  const memory = join(tempDir(), 'demo-ports.json');
  writeFileSync(memory, JSON.stringify({ [stranger.port]: otherDemo.port }));
  const resolved = await resolveFreePorts(template(stranger.port), memory, 'data-dir-id');
  const used = (JSON.parse(resolved.text) as { port: number }).port;
  t.not(used, stranger.port);
  t.not(used, otherDemo.port);
});

test('a remembered port held by a stranger is not kept', async (t) => {
  const stranger = await holder();
  const other = await holder();
  t.teardown(() => {
    stranger.close();
    other.close();
  });
  const memory = join(tempDir(), 'demo-ports.json');
  writeFileSync(memory, JSON.stringify({ [stranger.port]: other.port }));
  const resolved = await resolveFreePorts(template(stranger.port), memory, 'data-dir-id');
  const used = (JSON.parse(resolved.text) as { port: number }).port;
  t.not(used, stranger.port);
  t.not(used, other.port);
});

test('an unreadable memory is ignored, as on a first start', async (t) => {
  const memory = join(tempDir(), 'demo-ports.json');
  writeFileSync(memory, '{not json');
  const resolved = await resolveFreePorts('{"port": "{free_port:0}"}', memory);
  t.true(Number.isInteger((JSON.parse(resolved.text) as { port: number }).port));
});
