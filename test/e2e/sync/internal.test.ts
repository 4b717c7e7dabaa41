/** An internal subordinate named by process: URL and key come from its process block. */
import test from 'ava';
import { startHost } from '../../helpers/start-host.js';
import { request } from '../../helpers/http.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';
import { startFakeSeerr } from './fake-seerr.js';

test('internal subordinate resolved from its process block', async (t) => {
  const primary = await startFakeSeerr('p');
  const internal = await startFakeSeerr('block-key');
  primary.add('movie', 42);
  const host = await startHost({
    plugins: [builtinPlugin('sync')],
    config: {
      stackd: {
        sync: {
          enabled: true,
          primary: { url: primary.url, api_key: 'p' },
          internal_subordinates: [{ process_name: 'Jellyseerr' }],
        },
      },
      jellyseerr: {
        enabled: false,
        process_name: 'Jellyseerr',
        host: '127.0.0.1',
        port: Number(new URL(internal.url).port),
        api_key: 'block-key',
      },
    },
  });
  try {
    await eventually(() => internal.requests.length === 1, { what: 'internal synced' });
    const status = await eventually(async () => {
      const body = (await request(host.url, '/request-sync/status')).body;
      return body.subordinates?.['internal:Jellyseerr']?.synced === 1 ? body : undefined;
    });
    t.deepEqual(status.subordinates['internal:Jellyseerr'], { synced: 1, failed: 0 });
  } finally {
    await host.stop();
    await Promise.all([primary.close(), internal.close()]);
  }
});
