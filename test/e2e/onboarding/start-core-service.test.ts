import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { serviceStatus } from '../supervisor/support.js';
import {
  configOnDisk,
  fixtureBlock,
  program,
  startRecords,
  startWithTestCatalog,
} from './support.js';

async function holdPort(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

const portOf = (server: Server): number => (server.address() as AddressInfo).port;

test('a core service starts after its two templated dependencies, with the key injected; an optional service only when listed', async (t) => {
  const held = await holdPort(); // something else already listens on the port asked for the core
  t.teardown(() => held.close());
  const coreWanted = portOf(held);
  const occupier = await holdPort(); // a free port we hand to the occupier block
  const occupierPort = portOf(occupier);
  await new Promise<void>((resolve) => occupier.close(() => resolve()));
  const host = await startWithTestCatalog({
    occupier: fixtureBlock('Occupier', program('long-running'), ['--port', '{port}'], {
      port: occupierPort,
    }),
  });
  t.teardown(() => host.stop());
  await eventually(async () => (await serviceStatus(host, 'Occupier')).status === 'running');

  const response = await request(host.url, '/process/start-core-service', {
    body: {
      core_services: {
        name: 'Media Core',
        debrid_service: 'RealDebrid',
        debrid_key: 'sekret-key-123',
        service_options: {
          media_core: { port: coreWanted },
          webdav: { port: occupierPort }, // the occupier block claims it
        },
      },
      optional_services: ['Extra'],
      optional_service_options: { extra: { log_level: 'DEBUG' } },
    },
  });
  t.is(response.status, 200, response.text);
  t.deepEqual(response.body.errors, []);
  t.deepEqual(
    response.body.results.map((result: any) => [result.service, result.role, result.status]),
    [
      ['WebDAV w/ Media Core', 'dependency', 'started'],
      ['Mounter w/ Media Core', 'dependency', 'started'],
      ['Media Core', 'core', 'started'],
      ['Extra', 'optional', 'started'],
    ],
  );
  t.false(response.text.includes('sekret-key-123'), 'the key is never echoed');

  // The results above are in start order, each one running before the next began. The records
  // are written by the children once node has loaded them, which under load can come after the
  // answer and in any order: wait for all four and read them by name.
  const records = new Map(
    await eventually(() => {
      const lines = startRecords(host);
      return lines.length >= 4 ? lines : undefined;
    }),
  );
  t.deepEqual([...records.keys()].sort(), [
    'extra',
    'media_core',
    'mounter_media_core',
    'webdav_media_core',
  ]);
  t.is(
    records.get('webdav_media_core')?.key,
    'sekret-key-123',
    'the dependency that needs the key got it',
  );
  t.is(records.get('media_core')?.key, null, 'the core service did not');

  const saved = configOnDisk(host);
  const webdav = saved.webdav.instances['Media Core'];
  t.like(webdav, {
    enabled: true,
    process_name: 'WebDAV w/ Media Core',
    core_service: 'media_core',
    api_key: 'sekret-key-123',
  });
  t.not(webdav.port, occupierPort, 'moved off the port another block claims');
  t.is(records.get('webdav_media_core')?.port, webdav.port);
  t.like(saved.mounter.instances['Media Core'], {
    core_service: 'media_core',
    mount_name: 'media_core',
  });
  t.not(saved.media_core.port, coreWanted, 'moved off the port bound on 127.0.0.1');
  t.is(records.get('media_core')?.port, saved.media_core.port);
  t.like(saved.extra, { enabled: true, log_level: 'DEBUG' });
  t.is(saved.unlisted, undefined, 'an optional service not listed is not created');

  const redacted = await request(host.url, '/config');
  t.false(redacted.text.includes('sekret-key-123'));
  const core = await request(host.url, `/service/ui/media_core/`);
  t.is(core.status, 404, 'service UIs are off by default');
  const status = await serviceStatus(host, 'Media Core');
  t.is(status.status, 'running');

  const again = await request(host.url, '/process/start-core-service', {
    body: { core_services: [{ name: 'core' }] },
  });
  t.deepEqual(
    again.body.results.map((result: any) => result.status),
    ['already_running', 'already_running', 'already_running'],
  );
});

test('a failing dependency is listed in errors while the rest still start', async (t) => {
  // The failing service exits once node has loaded it: under CI load that took longer than the
  // suite's 300 ms start check and counted as started. The default check (2 s) leaves room.
  const host = await startWithTestCatalog({}, { supervisor: { start_check_ms: 2000 } });
  t.teardown(() => host.stop());
  const response = await request(host.url, '/process/start-core-service', {
    body: {
      core_services: [{ name: 'fragile_core' }, { name: 'no-such-service' }, { name: 'extra' }],
      optional_services: ['mounter', 'unlisted'],
    },
  });
  t.is(response.status, 200);
  t.deepEqual(
    response.body.errors.map((error: any) => [error.service, error.code]),
    [
      ['mounter', 'ONBOARDING_NOT_OPTIONAL_SERVICE'],
      ['no-such-service', 'ONBOARDING_UNKNOWN_SERVICE'],
      ['extra', 'ONBOARDING_NOT_CORE_SERVICE'],
      ['Broken w/ Fragile', 'PROCESS_START_FAILED'],
    ],
  );
  t.regex(response.body.errors[3].detail, /cannot open its database/);
  t.deepEqual(
    response.body.results.map((result: any) => [result.service, result.status]),
    [
      ['Mounter w/ Fragile', 'started'],
      ['Fragile Core', 'started'],
      ['Unlisted', 'started'],
    ],
  );
  t.is((await serviceStatus(host, 'Fragile Core')).status, 'running');
  t.like(configOnDisk(host).broken.instances.Fragile, { core_service: 'fragile_core' });
});

test('an invalid service option is an error item; nothing of that block is saved', async (t) => {
  const host = await startWithTestCatalog({});
  t.teardown(() => host.stop());
  const response = await request(host.url, '/process/start-core-service', {
    body: { optional_services: ['extra'], optional_service_options: { extra: { port: 'eighty' } } },
  });
  t.is(response.status, 200);
  t.deepEqual(response.body.results, []);
  t.like(response.body.errors[0], {
    service: 'Extra',
    code: 'CONFIG_INVALID',
    field: 'extra.port',
  });
  t.is(configOnDisk(host).extra, undefined);
});
