/** Subordinates: external ones as written, internal ones resolved from their process block. */
import test from 'ava';
import { syncConfigOf } from '../../../plugins/sync/config.js';
import { resolveSubordinates } from '../../../plugins/sync/subordinates.js';

const document = {
  jellyseerr: {
    instances: {
      Main: { process_name: 'Jellyseerr Main', enabled: true, port: 5055, api_key: 'block-key' },
      Remote: { process_name: 'Jellyseerr Remote', host: '127.0.0.2', port: 5056 },
      NoPort: { process_name: 'Jellyseerr NoPort' },
    },
  },
  overseerr: { process_name: 'Overseerr', port: 5057, api_key: 'o-key' },
  stackd: {
    sync: {
      subordinates: [{ label: 'far', url: 'http://127.0.0.1:9000', api_key: 'far-key' }],
      internal_subordinates: [
        { process_name: 'Jellyseerr Main' },
        { process_name: 'Jellyseerr Remote', api_key: 'slice-key' },
        { process_name: 'Jellyseerr NoPort' },
        { process_name: 'Not Configured' },
        { process_name: 'Overseerr' },
      ],
    },
  },
};

test('external subordinates come first, as written; internal ones get URL and key from the block', (t) => {
  const resolved = resolveSubordinates(syncConfigOf(document), document);
  t.deepEqual(resolved, [
    { label: 'far', url: 'http://127.0.0.1:9000', api_key: 'far-key' },
    { label: 'internal:Main', url: 'http://127.0.0.1:5055', api_key: 'block-key' },
    { label: 'internal:Remote', url: 'http://127.0.0.2:5056', api_key: 'slice-key' },
    { label: 'internal:Overseerr', url: 'http://127.0.0.1:5057', api_key: 'o-key' },
  ]);
});

test('a process without a port, or not configured, is skipped', (t) => {
  const labels = resolveSubordinates(syncConfigOf(document), document).map((sub) => sub.label);
  t.false(labels.some((label) => /NoPort|Not Configured/.test(label)));
});

test('a block without an api_key and none in the slice resolves to a blank key', (t) => {
  const bare = {
    seerr: { process_name: 'Seerr', port: 5058 },
    stackd: { sync: { internal_subordinates: [{ process_name: 'Seerr' }] } },
  };
  t.deepEqual(resolveSubordinates(syncConfigOf(bare), bare), [
    { label: 'internal:Seerr', url: 'http://127.0.0.1:5058', api_key: '' },
  ]);
});
