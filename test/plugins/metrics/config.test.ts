import test from 'ava';
import { filesystemPaths, networkInterfaces } from '../../../plugins/metrics/config.js';

test('filesystem paths: normalized, relative ones under the data dir, de-duplicated, data dir added', (t) => {
  t.deepEqual(filesystemPaths([' /data/ ', 'media', '/data', '/x//y/../z'], '/srv/stackd'), [
    '/data',
    '/srv/stackd/media',
    '/x/z',
    '/srv/stackd',
  ]);
  t.deepEqual(filesystemPaths(['/'], '/'), ['/']);
});

test('network interfaces: any "all" selects all, duplicates go', (t) => {
  t.deepEqual(networkInterfaces([]), ['all']);
  t.deepEqual(networkInterfaces(['eth0', ' ALL ', 'lo']), ['all']);
  t.deepEqual(networkInterfaces(['eth0', 'eth0', 'lo']), ['eth0', 'lo']);
});
