/**
 * The sync slice through the config routes: keys redacted by GET /config, bad URLs rejected naming the field, and a change applies without a
 * restart.
 */
import test from 'ava';
import { startHost } from '../../helpers/start-host.js';
import { request } from '../../helpers/http.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';
import { startFakeSeerr } from './fake-seerr.js';

test('config routes: redaction, URL check, live apply', async (t) => {
  const primary = await startFakeSeerr('primary-secret-key');
  const sub = await startFakeSeerr('sub-secret-key');
  primary.add('movie', 7);
  const host = await startHost({
    plugins: [builtinPlugin('supervisor'), builtinPlugin('sync')],
    config: {},
  });
  try {
    const badUrl = await request(host.url, '/config', {
      body: {
        updates: { stackd: { sync: { primary: { url: 'ftp://x', api_key: 'k' } } } },
        persist: false,
      },
    });
    t.is(badUrl.status, 422);
    t.regex(badUrl.text, /stackd\.sync\.primary\.url/);

    t.is((await request(host.url, '/request-sync/status')).body.status, 'disabled');
    const update = await request(host.url, '/config', {
      body: {
        updates: {
          stackd: {
            sync: {
              enabled: true,
              primary: { url: primary.url, api_key: 'primary-secret-key' },
              subordinates: [{ label: 'x', url: sub.url, api_key: 'sub-secret-key' }],
            },
          },
        },
        persist: false,
      },
    });
    t.is(update.status, 200, update.text);
    await eventually(() => sub.requests.length === 1, { what: 'live config applied' });
    const shown = await request(host.url, '/config');
    t.false(shown.text.includes('secret-key'));
    t.false(host.output().includes('secret-key'));
  } finally {
    await host.stop();
    await Promise.all([primary.close(), sub.close()]);
  }
});
