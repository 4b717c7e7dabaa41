import test from 'ava';
import type { JsonRecord } from '../../../../sdk/index.js';
import type { KnowledgeExtensions } from '../../../../plugins/graph/knowledge/knowledge.js';
import type { SignalName } from '../../../../plugins/graph/knowledge/signals.js';
import {
  dependenciesWithSiblings,
  dependentsWithSiblings,
} from '../../../../plugins/graph/stack/stack-graph.js';
import { block, graphOf, instances, relation } from '../graph-fixtures.js';

interface SignalCase {
  readonly what: string;
  readonly document: JsonRecord;
  readonly extensions?: Partial<KnowledgeExtensions>;
  /** [dependency, dependent, signals] relations that must exist. */
  readonly present: [string, string, SignalName[]][];
  /** [dependency, dependent] pairs that must not be related. */
  readonly absent?: [string, string][];
}

const mounts: JsonRecord = {
  rclone: instances({
    Riven: block('rclone w/ Riven', {
      mount_dir: '/mnt/debrid',
      mount_name: 'riven',
      core_service: 'riven_backend',
    }),
    Zurg: block('rclone w/ Zurg', { mount_path: '/mnt/debrid/zurg/' }),
  }),
};

const cases: SignalCase[] = [
  {
    what: 'core_service_map: a core waits for the services its static map lists',
    document: { cli_debrid: block('CLI Debrid'), phalanx_db: block('Phalanx DB') },
    present: [['Phalanx DB', 'CLI Debrid', ['core_service_map']]],
  },
  {
    what: 'core_service_map: instance-scoped providers only count when attached to the core',
    document: {
      riven_backend: block('Riven Backend'),
      zurg: instances({
        Riven: block('Zurg w/ Riven', { core_service: 'riven_backend' }),
        Cli: block('Zurg w/ CLI', { core_service: 'cli_debrid' }),
      }),
    },
    present: [
      ['Zurg w/ Riven', 'Riven Backend', ['core_service_map']],
      // The instance names its core: configured linkage the other way round.
      ['Riven Backend', 'Zurg w/ Riven', ['core_service_fields']],
    ],
    absent: [
      ['Zurg w/ CLI', 'Riven Backend'],
      ['Zurg w/ CLI', 'Zurg w/ Riven'],
    ],
  },
  {
    what: 'core_service_map: decypharr needs rclone only with another mount type',
    document: {
      decypharr: block('Decypharr', { mount_type: 'other' }),
      rclone: instances({
        A: block('rclone A', { core_service: 'decypharr' }),
        B: block('rclone B', { core_service: 'riven_backend' }),
      }),
    },
    present: [
      ['rclone A', 'Decypharr', ['core_service_map']],
      ['Decypharr', 'rclone A', ['core_service_fields']],
    ],
    absent: [['rclone B', 'Decypharr']],
  },
  {
    what: 'core_service_map: decypharr with its own rclone mount needs no rclone',
    document: {
      decypharr: block('Decypharr', { mount_type: 'rclone' }),
      rclone: instances({ A: block('rclone A', { core_service: 'decypharr' }) }),
    },
    present: [],
    absent: [['rclone A', 'Decypharr']],
  },
  {
    what: 'core_service_fields: the named core and the sibling instances',
    document: {
      decypharr: block('Decypharr', { mount_type: 'rclone' }),
      sonarr: instances({
        Default: block('Sonarr'),
        Anime: block('Sonarr Anime', { core_service: ['Decypharr'] }),
      }),
    },
    present: [
      ['Decypharr', 'Sonarr Anime', ['core_service_fields']],
      ['Sonarr', 'Sonarr Anime', ['core_service_fields']],
      ['Sonarr Anime', 'Sonarr', ['core_service_fields']],
    ],
  },
  {
    what: 'wait_for_url: a local port, a tag and a host name name the provider',
    document: {
      api: block('Api', { port: 8082 }),
      web: block('Web', { wait_for_url: ['http://127.0.0.1:8082/health'] }),
      tagged: block('Tagged', {
        wait_for_url: [{ url: 'http://10.0.0.9/x', process_name: 'api' }],
      }),
      remote: block('Remote', { wait_for_url: 'http://Api:9999/health' }),
      nothing: block('Nothing', { wait_for_url: ['http://127.0.0.1:1/none'] }),
    },
    present: [
      ['Api', 'Web', ['wait_for_url']],
      ['Api', 'Tagged', ['wait_for_url']],
      ['Api', 'Remote', ['wait_for_url']],
    ],
    absent: [['Api', 'Nothing']],
  },
  {
    what: 'wait_for_url: a process never depends on itself through its own port',
    document: { api: block('Api', { port: 8082, wait_for_url: ['http://127.0.0.1:8082/'] }) },
    present: [],
    absent: [['Api', 'Api']],
  },
  {
    what: 'wait_for_dir: a directory below a provider mount point',
    document: {
      ...mounts,
      riven_frontend: block('Riven UI', { wait_for_dir: '/mnt/debrid/riven/movies' }),
    },
    present: [['rclone w/ Riven', 'Riven UI', ['wait_for_dir']]],
    absent: [['rclone w/ Zurg', 'Riven UI']],
  },
  {
    what: 'wait_for_mounts: a parent path matches every mount below it, a sibling path none',
    document: {
      ...mounts,
      emby: block('Emby', { wait_for_mounts: ['/mnt/debrid'] }),
      jellyfin: block('Jellyfin', { wait_for_mounts: ['/mnt/debrid2'] }),
    },
    present: [
      ['rclone w/ Zurg', 'Emby', ['wait_for_mounts']],
      ['rclone w/ Riven', 'Emby', ['wait_for_mounts']],
    ],
    absent: [
      ['rclone w/ Zurg', 'Jellyfin'],
      ['rclone w/ Riven', 'Jellyfin'],
    ],
  },
  {
    what: 'wait_for_dir: tags of an object entry',
    document: {
      api: block('Api'),
      web: block('Web', { wait_for_dir: [{ path: '/srv', service: 'api' }] }),
    },
    present: [['Api', 'Web', ['wait_for_dir']]],
  },
  {
    what: 'wait_for_mounts: matched to provider mount points',
    document: {
      ...mounts,
      plex: block('Plex Media Server', { wait_for_mounts: ['/mnt/debrid/zurg'] }),
    },
    present: [['rclone w/ Zurg', 'Plex Media Server', ['wait_for_mounts']]],
    absent: [['rclone w/ Riven', 'Plex Media Server']],
  },
  {
    what: 'rclone providers: zurg scoped to the mount core, decypharr, infinidysk',
    document: {
      zurg: instances({
        Riven: block('Zurg w/ Riven', { core_service: 'riven_backend' }),
        Cli: block('Zurg w/ CLI', { core_service: 'cli_debrid' }),
      }),
      decypharr: block('Decypharr', { mount_type: 'rclone' }),
      infinidysk: block('InfiniDysk'),
      rclone: instances({
        Riven: block('rclone w/ Riven', { zurg_enabled: true, core_service: 'riven_backend' }),
        Decypharr: block('rclone w/ Decypharr', { decypharr_enabled: true }),
        Nzb: block('rclone w/ NzbDAV', { key_type: 'NzbDAV' }),
      }),
    },
    present: [
      ['Zurg w/ Riven', 'rclone w/ Riven', ['conditional_startup_map', 'rclone_provider_zurg']],
      [
        'Decypharr',
        'rclone w/ Decypharr',
        ['conditional_startup_map', 'rclone_provider_decypharr'],
      ],
      ['InfiniDysk', 'rclone w/ NzbDAV', ['conditional_startup_map', 'rclone_provider_nzbdav']],
    ],
    absent: [
      ['Zurg w/ CLI', 'rclone w/ Riven'],
      ['Decypharr', 'rclone w/ Riven'],
      ['InfiniDysk', 'rclone w/ Decypharr'],
    ],
  },
  {
    what: 'zilean_optional_integration: the arrs can use zilean (soft)',
    document: { zilean: block('Zilean'), sonarr: instances({ A: block('Sonarr') }) },
    present: [['Zilean', 'Sonarr', ['zilean_optional_integration']]],
  },
  {
    what: 'non_core_dependency_map: shipped and extended from the config slice',
    document: {
      traefik: block('Traefik'),
      cloudflared: block('Cloudflared'),
      api: block('Api'),
      web: block('Web'),
    },
    extensions: { extra_dependencies: { web: ['api'] } },
    present: [
      ['Traefik', 'Cloudflared', ['conditional_startup_map', 'non_core_dependency_map']],
      ['Api', 'Web', ['non_core_dependency_map']],
    ],
  },
  {
    what: 'conditional_startup_map: tautulli on plex while plex is enabled',
    document: { plex: block('Plex Media Server'), tautulli: block('Tautulli') },
    present: [['Plex Media Server', 'Tautulli', ['conditional_startup_map']]],
  },
  {
    what: 'conditional_startup_map: nothing while plex is disabled',
    document: { plex: block('Plex Media Server', { enabled: false }), tautulli: block('Tautulli') },
    present: [],
    absent: [['Plex Media Server', 'Tautulli']],
  },
  {
    what: 'documented_integration: shipped and extended from the config slice',
    document: {
      seerr: block('Seerr'),
      sonarr: instances({ A: block('Sonarr') }),
      api: block('Api'),
      web: block('Web'),
    },
    extensions: { extra_integrations: { web: ['api'] } },
    present: [
      ['Sonarr', 'Seerr', ['documented_integration']],
      ['Api', 'Web', ['documented_integration']],
    ],
  },
];

for (const signalCase of cases)
  test(signalCase.what, (t) => {
    const graph = graphOf(signalCase.document, signalCase.extensions);
    for (const [dependency, dependent, signals] of signalCase.present)
      t.deepEqual(relation(graph, dependency, dependent), signals, `${dependency} → ${dependent}`);
    for (const [dependency, dependent] of signalCase.absent ?? [])
      t.is(relation(graph, dependency, dependent), undefined, `${dependency} ↛ ${dependent}`);
  });

test('dependents are exactly the dependencies seen from the other end', (t) => {
  const graph = graphOf({
    ...mounts,
    plex: block('Plex Media Server', { port: 32400, wait_for_mounts: ['/mnt/debrid/zurg'] }),
    tautulli: block('Tautulli', { wait_for_url: 'http://127.0.0.1:32400/identity' }),
    seerr: block('Seerr'),
    sonarr: instances({ A: block('Sonarr') }),
  });
  let count = 0;
  graph.dependencies.forEach((relations, dependent) => {
    for (const [dependency, signals] of relations) {
      count += 1;
      t.is(graph.dependents[dependency]?.get(dependent), signals);
    }
  });
  const incoming = graph.dependents.reduce((sum, relations) => sum + relations.size, 0);
  t.is(incoming, count);
  t.true(count >= 4);
});

test('sibling relations are symmetric for plain keys and scoped by core for zurg', (t) => {
  const graph = graphOf({
    sonarr: instances({ A: block('Sonarr A'), B: block('Sonarr B'), C: block('Sonarr C') }),
    zurg: instances({
      R1: block('Zurg R1', { core_service: 'riven_backend' }),
      R2: block('Zurg R2', { core_service: 'riven_backend' }),
      C: block('Zurg C', { core_service: 'cli_debrid' }),
      Free: block('Zurg Free'),
    }),
  });
  const named = (name: string) => {
    const entry = graph.entries.find((candidate) => candidate.process_name === name);
    if (entry === undefined) throw new Error(name);
    return entry;
  };
  const names = (relations: ReadonlyMap<number, unknown>) =>
    [...relations.keys()].map((index) => graph.entries[index]?.process_name).sort();
  t.deepEqual(names(dependenciesWithSiblings(graph, named('Sonarr B'))), ['Sonarr A', 'Sonarr C']);
  t.deepEqual(names(dependentsWithSiblings(graph, named('Sonarr B'))), ['Sonarr A', 'Sonarr C']);
  t.deepEqual(names(dependenciesWithSiblings(graph, named('Zurg R1'))), ['Zurg R2']);
  // An unattached instance counts every other instance; only it counts Zurg R1 that way.
  t.deepEqual(names(dependenciesWithSiblings(graph, named('Zurg Free'))), [
    'Zurg C',
    'Zurg R1',
    'Zurg R2',
  ]);
  t.deepEqual(names(dependentsWithSiblings(graph, named('Zurg R1'))), ['Zurg Free', 'Zurg R2']);
  // Stored relations leave siblings out (they would grow with the square of the instances).
  t.is(graph.dependencies[named('Sonarr B').index]?.size, 0);
});
