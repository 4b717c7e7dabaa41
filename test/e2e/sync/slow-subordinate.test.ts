/**
 * A slow subordinate (every create answered after 1.5 s) beside a fast one: the fast one gets
 * new requests on the next poll while the slow one is still catching up, cycle after cycle.
 */
import test from 'ava';
import { startHost } from '../../helpers/start-host.js';
import { request } from '../../helpers/http.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';
import { startFakeSeerr } from './fake-seerr.js';

test('a slow subordinate holds up neither the next poll nor the others', async (t) => {
  const primary = await startFakeSeerr('pkey');
  const slow = await startFakeSeerr('skey');
  const fast = await startFakeSeerr('fkey');
  t.teardown(() => Promise.all([primary.close(), slow.close(), fast.close()]));
  for (let tmdbId = 1; tmdbId <= 8; tmdbId += 1) primary.add('movie', tmdbId);
  slow.createDelayMs = 1_500;
  const host = await startHost({
    plugins: [builtinPlugin('sync')],
    config: {
      stackd: {
        sync: {
          enabled: true,
          poll_interval_seconds: 5,
          retry_delay_seconds: 0,
          primary: { url: primary.url, api_key: 'pkey' },
          subordinates: [
            { label: 'slow', url: slow.url, api_key: 'skey' },
            { label: 'fast', url: fast.url, api_key: 'fkey' },
          ],
        },
      },
    },
  });
  t.teardown(() => host.stop());
  await eventually(() => fast.requests.length === 8, { what: 'the fast one copied all 8' });
  primary.add('movie', 100);
  await eventually(() => fast.requests.some((r) => r.media.tmdbId === 100), {
    what: 'the new request on the fast one',
    timeoutMs: 20_000,
  });
  // 8 creates at 1.5 s each need more than one cycle: had the first cycle waited for the slow
  // one, it would hold all 8 before the next listing could see the new request.
  t.true(
    slow.requests.length < 8,
    `slow one had ${slow.requests.length} when fast got the new one`,
  );
  await eventually(() => slow.requests.length === 9, {
    what: 'the slow one caught up',
    timeoutMs: 40_000,
  });
  const status = await eventually(async () => {
    const answer = await request(host.url, '/api/request-sync/status');
    return answer.body.subordinates?.slow?.synced === 9 ? answer.body : undefined;
  });
  t.deepEqual(status.subordinates.fast, { synced: 9, failed: 0 });
  t.is(slow.creates.length, 9, 'nothing created twice');
});
