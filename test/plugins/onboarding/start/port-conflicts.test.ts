import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { listProcessEntries } from '../../../../sdk/index.js';
import { canListen, resolvePort } from '../../../../plugins/onboarding/start/port-conflicts.js';

test('a port bound on 127.0.0.1 moves to the next free one', async (t) => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const port = (server.address() as AddressInfo).port;
  t.false(await canListen(port));
  const entries = listProcessEntries({ app: { process_name: 'App', enabled: true, port } });
  const moved = await resolvePort(entries[0] as never, entries);
  t.true(moved !== null && moved > port);
});

test('a port claimed by another enabled block moves; a disabled one does not claim it', async (t) => {
  const document = {
    a: { process_name: 'A', enabled: true, port: 40_100 },
    b: { process_name: 'B', enabled: true, port: 40_100 },
    c: { process_name: 'C', enabled: false, port: 40_200 },
    d: { process_name: 'D', enabled: true, port: 40_200 },
  };
  const entries = listProcessEntries(document);
  const free = (): Promise<boolean> => Promise.resolve(true);
  t.is(await resolvePort(entries[1] as never, entries, { isFree: free }), 40_101);
  t.is(await resolvePort(entries[3] as never, entries, { isFree: free }), null);
  t.is(
    await resolvePort(entries[3] as never, entries, { isFree: free, reserved: [40_200, 40_201] }),
    40_202,
  );
});
