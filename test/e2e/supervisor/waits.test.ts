import test from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '../../helpers/eventually.js';
import { request } from '../../helpers/http.js';
import { fixtureBlock, program, serviceStatus, startSupervisor } from './support.js';

test('wait_for_url holds the start until the upstream answers 2xx', async (t) => {
  let healthy = false;
  const upstream = createServer((_request, response) =>
    response.writeHead(healthy ? 200 : 503).end(),
  );
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  t.teardown(() => upstream.close());
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/health`;
  const host = await startSupervisor(
    {
      client: fixtureBlock('Client', program('long-running'), [], {
        wait_for_url: [{ url, timeout: 2 }],
      }),
    },
    { supervisor: { start_response_timeout_sec: 1 } },
  );
  t.teardown(() => host.stop());
  const waiting = await eventually(
    async () => {
      const body = await serviceStatus(host, 'Client');
      return body.status === 'starting' ? body : undefined;
    },
    { what: 'starting' },
  );
  t.is(waiting.reason, `waiting for ${url}`);
  t.is(waiting.pid, undefined, 'nothing launched yet');

  // A start request joins the waiting start and answers 202 when its response timeout passes.
  const pending = await request(host.url, '/process/start-service', {
    body: { process_name: 'Client' },
  });
  t.is(pending.status, 202);
  t.like(pending.body, { status: 'starting', message: `Still starting: waiting for ${url}` });

  healthy = true;
  await eventually(
    async () => {
      return (await serviceStatus(host, 'Client')).status === 'running';
    },
    { what: 'running after the upstream answered' },
  );
});
