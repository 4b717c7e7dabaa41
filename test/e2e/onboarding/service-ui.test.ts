import test from 'ava';
import { eventually } from '../../helpers/eventually.js';
import { openSocket, request } from '../../helpers/http.js';
import { serviceStatus } from '../supervisor/support.js';
import { configOnDisk, fixtureBlock, freePort, program, startWithTestCatalog } from './support.js';

test('the service UI proxy reaches a service over HTTP and WebSocket once enabled', async (t) => {
  const port = await freePort();
  const host = await startWithTestCatalog({
    web_app: fixtureBlock(
      'Web App',
      program('catalog-service'),
      ['--name', 'web', '--port', '{port}'],
      {
        port,
      },
    ),
    quiet: fixtureBlock('Quiet', program('long-running'), [], { enabled: false, port: 9 }),
  });
  t.teardown(() => host.stop());
  await eventually(async () => (await serviceStatus(host, 'Web App')).status === 'running');

  const listed = await request(host.url, '/config/service-ui');
  t.deepEqual(listed.body, {
    enabled: false,
    services: [{ name: 'Web App', port, path: '/service/ui/web_app' }],
  });
  t.is((await request(host.url, '/service/ui/web_app/')).status, 404, 'off by default');

  const enabled = await request(host.url, '/config/service-ui', { body: { enabled: true } });
  t.like(enabled.body, { enabled: true });
  t.is(configOnDisk(host).stackd.onboarding.service_ui_enabled, true);

  const page = await request(host.url, '/service/ui/web_app/some/page?x=1', {
    method: 'POST',
    body: { a: 1 },
  });
  t.is(page.status, 200);
  t.is(page.text, 'hello from web POST /some/page');
  t.is((await request(host.url, '/service/ui/quiet/')).status, 404, 'a disabled service');
  t.is((await request(host.url, '/service/ui/nope/')).status, 404, 'an unknown key');

  const socket = await openSocket(host.url, '/service/ui/web_app/live');
  t.teardown(() => socket.close());
  await eventually(() => socket.socket.readyState === socket.socket.OPEN);
  socket.socket.send('ping');
  t.is(await socket.next(), 'web:ping');

  const disabled = await request(host.url, '/config/service-ui', { body: { enabled: false } });
  t.like(disabled.body, { enabled: false });
  t.is((await request(host.url, '/service/ui/web_app/')).status, 404);
  t.is(configOnDisk(host).stackd.onboarding.service_ui_enabled, false);
});
