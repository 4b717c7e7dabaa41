import test from 'ava';
import {
  listGraphEntries,
  mountPointsOf,
  normalizeCoreRefs,
  portsOf,
} from '../../../../plugins/graph/stack/stack-entries.js';
import {
  dirWaitsOf,
  mountWaitsOf,
  urlWaitsOf,
} from '../../../../plugins/graph/stack/wait-fields.js';
import { ancestorsOf } from '../../../../plugins/graph/stack/entry-index.js';
import { block, instances, knowledge } from '../graph-fixtures.js';

const legacy = knowledge().legacyCoreRefs;

const coreRefCases: [unknown[], string[]][] = [
  [
    [' Decypharr ', 'nzbdav, zurg', null, 42],
    ['decypharr', 'infinidysk', 'zurg'],
  ],
  [['decypharr, nzbdav'], ['decypharr', 'infinidysk']],
  [
    ['Decypharr', ['decypharr', 'InfiniDysk, zurg']],
    ['decypharr', 'infinidysk', 'zurg'],
  ],
  [['', undefined, []], []],
];
for (const [input, expected] of coreRefCases)
  test(`core refs of ${JSON.stringify(input)}`, (t) => {
    t.deepEqual(normalizeCoreRefs(input, legacy), expected);
  });

test('ports: every port-like field and ports[], positive integers only', (t) => {
  t.deepEqual(
    portsOf({
      port: 8080,
      web_port: '9000',
      ui_port: 0,
      https_port: -1,
      ports: [1, 'x', 8080, 2.5],
    }).sort(),
    [1, 8080, 9000],
  );
});

test('mount points: mount_path and mount_dir + mount_name, normalized', (t) => {
  t.deepEqual(
    mountPointsOf({ mount_path: '/mnt/a/', mount_dir: '/mnt/debrid', mount_name: 'zurg' }),
    ['/mnt/a', '/mnt/debrid/zurg'],
  );
  t.deepEqual(mountPointsOf({ mount_dir: '/mnt' }), []);
});

test('entries: singletons, instances, the API service; skips blocks without a process name', (t) => {
  const entries = listGraphEntries(
    {
      stackd: {
        api_service: { process_name: 'stackd API', port: 8000 },
        graph: { process_name: 'x' },
      },
      web: block('Web', { enabled: false }),
      sonarr: instances({ Default: block('Sonarr'), Broken: { enabled: true } }),
      notes: { text: 'not a process' },
      list: [1, 2],
    },
    legacy,
  );
  t.deepEqual(
    entries.map((entry) => [
      entry.process_name,
      entry.config_key,
      entry.instance_name,
      entry.name,
      entry.enabled,
    ]),
    [
      ['stackd API', 'stackd_api_service', null, 'stackd api_service', true],
      ['Web', 'web', null, 'web', false],
      ['Sonarr', 'sonarr', 'Default', 'sonarr instances Default', true],
    ],
  );
  t.deepEqual(
    entries.map((entry) => entry.index),
    [0, 1, 2],
  );
});

test('wait_for_url: strings, objects, tags, non-local hosts, /ui/ segments, local ports', (t) => {
  t.deepEqual(
    urlWaitsOf({
      wait_for_url: [
        'http://127.0.0.1:32400/identity',
        { url: 'http://localhost/health', core_service: 'Plex, jellyfin', service: 'Emby' },
        { url: 'https://zurg:9999/dav/' },
        { url: 'http://0.0.0.0:3005/ui/Sonarr/api' },
        { url: 'not a url', process_name: 'Radarr' },
        { no_url: true },
      ],
    }),
    [
      { refs: [], localPort: 32400 },
      { refs: ['plex', 'jellyfin', 'emby'], localPort: 80 },
      { refs: ['zurg'], localPort: undefined },
      { refs: ['sonarr'], localPort: 3005 },
      { refs: ['radarr'], localPort: undefined },
    ],
  );
  t.deepEqual(urlWaitsOf({ wait_for_url: { url: 'http://[::1]:8989/ping' } }), [
    { refs: [], localPort: 8989 },
  ]);
  t.deepEqual(urlWaitsOf({}), []);
});

test('wait_for_dir: a path, a list, objects with a path field and tags', (t) => {
  t.deepEqual(dirWaitsOf({ wait_for_dir: '/mnt/debrid/riven/' }), [
    { path: '/mnt/debrid/riven', refs: [] },
  ]);
  t.deepEqual(
    dirWaitsOf({
      wait_for_dir: ['/a', { directory: '/b', core_service: 'zurg' }, { value: 3 }, ''],
    }),
    [
      { path: '/a', refs: [] },
      { path: '/b', refs: ['zurg'] },
      { path: '', refs: [] },
    ],
  );
  t.deepEqual(dirWaitsOf({ wait_for_dir: '' }), []);
});

test('wait_for_mounts: a list of paths (or one)', (t) => {
  t.deepEqual(mountWaitsOf({ wait_for_mounts: ['/mnt/x/', 4, '/mnt/y'] }), ['/mnt/x', '/mnt/y']);
  t.deepEqual(mountWaitsOf({ wait_for_mounts: '/mnt/z' }), ['/mnt/z']);
});

const ancestors: [string, string[]][] = [
  ['/mnt/debrid/riven', ['/mnt/debrid/riven', '/mnt/debrid', '/mnt', '/']],
  ['/', ['/']],
  ['relative/dir', ['relative/dir', 'relative']],
];
for (const [path, expected] of ancestors)
  test(`ancestors of ${path}`, (t) => {
    t.deepEqual(ancestorsOf(path), expected);
  });
