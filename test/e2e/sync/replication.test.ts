/**
 * Request sync end to end: a real host with the sync plugin, a fake primary and two fake
 * subordinates (real HTTP servers). Replication, idempotence, retry, no deletion after a failed
 * page, state across a restart, the test probe and key redaction.
 */
import test from 'ava';
import { startHost, tempDir } from '../../helpers/start-host.js';
import { request } from '../../helpers/http.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';
import { startFakeSeerr } from './fake-seerr.js';

const SYNC = builtinPlugin('sync');

test('replicates, stays idempotent, retries failures and survives a restart', async (t) => {
  const primary = await startFakeSeerr('pkey');
  const subA = await startFakeSeerr('akey');
  const subB = await startFakeSeerr('bkey');
  primary.add('movie', 11);
  primary.add('tv', 22, false, [1]);
  primary.add('tv', 22, false, [2]);
  primary.add('movie', 33, true);
  subB.failCreate = true;
  const config = {
    stackd: {
      sync: {
        enabled: true,
        poll_interval_seconds: 5,
        retry_delay_seconds: 0,
        primary: { url: primary.url, api_key: 'pkey' },
        subordinates: [
          { label: 'a', url: subA.url, api_key: 'akey' },
          { label: 'b', url: subB.url, api_key: 'bkey' },
        ],
      },
    },
  };
  const dataDir = tempDir();
  let host = await startHost({ plugins: [SYNC], config, dataDir });
  try {
    await eventually(() => subA.requests.length === 2, { what: 'subordinate a synced' });
    t.deepEqual(
      subA.requests.map((r) => [r.type, r.media.tmdbId, r.seasons.map((s) => s.seasonNumber)]),
      [
        ['movie', 11, []],
        ['tv', 22, [1, 2]],
      ],
    );
    const status = await eventually(async () => {
      const answer = await request(host.url, '/api/request-sync/status');
      return answer.body.subordinates?.b?.failed === 2 ? answer.body : undefined;
    });
    t.is(status.status, 'active');
    t.deepEqual(status.subordinates.a, { synced: 2, failed: 0 });
    const failed = await request(host.url, '/seerr-sync/failed');
    t.is(failed.body.count, 2);
    t.is(failed.body.failed_requests[0].subordinate, 'b');

    // Recovery: the subordinate works again and the failed ones are cleared.
    subB.failCreate = false;
    const cleared = await request(host.url, '/request-sync/failed', { method: 'DELETE' });
    t.is(cleared.body.cleared, 2);
    await eventually(() => subB.requests.length === 2, { what: 'b retried', timeoutMs: 15_000 });

    // A failed page: nothing is deleted.
    primary.failList = true;
    primary.requests.splice(0, 1);
    const createsBefore = subA.creates.length;

    const config1 = await request(host.url, '/config');
    t.false(config1.text.includes('akey'));
    t.false(config1.text.includes('pkey'));

    await host.stop();
    host = await startHost({ plugins: [SYNC], config, dataDir });
    await eventually(() => primary.listFailures > 0, { what: 'a failed poll' });
    const state = await request(host.url, '/request-sync/state');
    t.is(subA.requests.length, 2, 'nothing deleted after a failed page');
    t.truthy(state.body.requests['movie:11:false'].subordinates.a);
    t.is(subA.creates.length, createsBefore, 'no duplicate creates after restart');

    primary.failList = false;
    await eventually(() => subA.requests.length === 1, {
      what: 'deletion propagated',
      timeoutMs: 15_000,
    });
    t.is(subA.requests[0]?.type, 'tv');
  } finally {
    await host.stop();
    await Promise.all([primary.close(), subA.close(), subB.close()]);
  }
});

test('test route probes with the key; a failure says only that the remote was not reached', async (t) => {
  const remote = await startFakeSeerr('good');
  const host = await startHost({ plugins: [SYNC], config: {} });
  try {
    const ok = await request(host.url, '/api/request-sync/test', {
      body: { url: remote.url, api_key: 'good' },
    });
    t.deepEqual(ok.body, { ok: true, status: { version: '1.2.3' } });
    const bad = await request(host.url, '/api/request-sync/test', {
      body: { url: remote.url, api_key: 'bad' },
    });
    // The remote's status is logged for the owner, not answered: the route must not be a port scanner.
    t.deepEqual(bad.body, { ok: false, detail: 'could not reach the provider' });
    t.regex(host.output(), /request-sync test of .* failed: remote answered HTTP 401/);
    t.false(bad.text.includes('bad"'));
    const creds = await request(host.url, '/request-sync/test', {
      body: { url: 'http://u:p@127.0.0.1:1', api_key: 'x' },
    });
    t.is(creds.status, 422);
    const status = await request(host.url, '/request-sync/status');
    t.deepEqual(status.body, { enabled: false, status: 'disabled' });
    t.true((await request(host.url, '/process/capabilities')).body.request_sync);
    const paths = Object.keys((await request(host.url, '/openapi.json')).body.paths);
    // The documented path is the one the API reference gives, /api/request-sync/*.
    for (const prefix of ['/api/request-sync', '/seerr-sync'])
      for (const route of ['status', 'failed', 'state', 'test'])
        t.true(paths.includes(`${prefix}/${route}`), `${prefix}/${route} documented`);
    for (const path of ['/request-sync/status', '/api/request-sync/status']) {
      const served = await request(host.url, path);
      t.is(served.status, 200, `${path} is served`);
    }
  } finally {
    await host.stop();
    await remote.close();
  }
});
