/**
 * `seerr_sync`, the layout DUMB's Seerr sync panel edits: GET /config shows stackd.sync in it
 * (keys redacted), POST /config writes it back into stackd.sync (redacted keys keep the stored
 * ones), options stackd cannot honour are refused naming the field, and the file never gets a
 * `seerr_sync` key.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { startHost } from '../../helpers/start-host.js';
import { request } from '../../helpers/http.js';
import { builtinPlugin } from '../../helpers/fixture-paths.js';
import { eventually } from '../../helpers/eventually.js';
import { startFakeSeerr } from './fake-seerr.js';

test('the dashboard layout reads and writes stackd.sync', async (t) => {
  const primary = await startFakeSeerr('primary-key-1');
  const sub = await startFakeSeerr('sub-key-1');
  const added = await startFakeSeerr('added-key-1');
  t.teardown(() => Promise.all([primary.close(), sub.close(), added.close()]));
  primary.add('movie', 7);
  const host = await startHost({
    plugins: ['supervisor', 'sync'].map(builtinPlugin),
    config: {
      stackd: {
        sync: {
          enabled: true,
          poll_interval_seconds: 60,
          primary: { url: primary.url, api_key: 'primary-key-1' },
          subordinates: [{ label: 'one', url: sub.url, api_key: 'sub-key-1' }],
        },
      },
    },
  });
  t.teardown(() => host.stop());

  const shown = (await request(host.url, '/api/config/')).body.seerr_sync;
  t.like(shown, {
    enabled: true,
    poll_interval_seconds: 60,
    external_primary: { enabled: true, url: primary.url, api_key: '[REDACTED]' },
    external_subordinates: [{ url: sub.url, api_key: '[REDACTED]', label: 'one' }],
    options: { sync_declined: true, sync_deletes: true, user_mapping: 'admin' },
  });

  // The panel posts back what it read (keys redacted), with its edits.
  const saved = await request(host.url, '/api/config/', {
    body: {
      persist: true,
      updates: {
        seerr_sync: {
          ...shown,
          poll_interval_seconds: 30,
          external_subordinates: [
            ...shown.external_subordinates,
            { url: added.url, api_key: 'added-key-1' },
          ],
          options: { ...shown.options, user_mapping: 'email_match' },
        },
      },
    },
  });
  t.is(saved.status, 200, saved.text);
  const file = JSON.parse(readFileSync(host.configPath ?? '', 'utf8'));
  t.false('seerr_sync' in file, 'stored only in stackd.sync');
  t.like(file.stackd.sync, {
    poll_interval_seconds: 30,
    user_mapping: 'email_match',
    primary: { api_key: 'primary-key-1' },
  });
  t.deepEqual(
    file.stackd.sync.subordinates.map((entry: { api_key: string }) => entry.api_key),
    ['sub-key-1', 'added-key-1'],
  );
  // The new subordinate is live without a restart.
  await request(host.url, '/api/request-sync/failed', { method: 'DELETE' });
  const status = await eventually(async () => {
    const answer = await request(host.url, '/api/seerr-sync/status');
    return Object.keys(answer.body.subordinates ?? {}).length === 2 ? answer.body : undefined;
  });
  t.is(Object.keys(status.subordinates).length, 2);

  const refused = await request(host.url, '/api/config/', {
    body: { updates: { seerr_sync: { options: { sync_declined: false } } } },
  });
  t.is(refused.status, 422, refused.text);
  t.is(refused.body.field, 'updates.seerr_sync.options.sync_declined');
  const tooFast = await request(host.url, '/api/config/', {
    body: { updates: { seerr_sync: { poll_interval_seconds: 1 } } },
  });
  t.is(tooFast.status, 422);
  t.is(tooFast.body.field, 'updates.seerr_sync.poll_interval_seconds');
});
