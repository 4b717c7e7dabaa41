import test from 'ava';
import type { JsonRecord } from '../../../../sdk/index.js';
import {
  buildConditionalMap,
  conditionalDepsOfEntry,
} from '../../../../plugins/graph/knowledge/conditional-map.js';
import { graphOf, instances, block, knowledge } from '../graph-fixtures.js';

function mapOf(document: JsonRecord): Record<string, string[]> {
  const graph = graphOf(document);
  const map = buildConditionalMap(graph.index.byKey, knowledge());
  return Object.fromEntries([...map].map(([key, deps]) => [key, [...deps].sort()]));
}

test('enabled media servers and arrs decide tautulli, seerr, prowlarr, profilarr, bazarr', (t) => {
  const map = mapOf({
    plex: block('Plex'),
    jellyfin: block('Jellyfin', { enabled: false }),
    sonarr: instances({ Main: block('Sonarr') }),
    radarr: instances({ Movies: block('Radarr', { enabled: false }) }),
    whisparr: instances({ Adult: block('Whisparr') }),
  });
  t.deepEqual(map.tautulli, ['plex']);
  t.deepEqual(map.seerr, ['plex']);
  t.deepEqual(map.prowlarr, ['sonarr', 'whisparr']);
  t.deepEqual(map.profilarr, ['sonarr', 'whisparr']);
  t.deepEqual(map.bazarr, ['sonarr']);
});

test('the base entries are there whatever is configured', (t) => {
  const map = mapOf({});
  t.deepEqual(map.riven_backend, ['postgres']);
  t.deepEqual(map.riven_frontend, ['riven_backend']);
  t.deepEqual(map.pgadmin, ['postgres']);
  t.deepEqual(map.cloudflared, ['traefik']);
  t.is(map.tautulli, undefined);
});

test('neutarr follows the arrs with an enabled instance that uses it', (t) => {
  const map = mapOf({
    sonarr: instances({ Main: block('Sonarr', { use_neutarr: true }) }),
    radarr: instances({ Main: block('Radarr') }),
    whisparr: instances({ Main: block('Whisparr', { enabled: false, use_neutarr: true }) }),
  });
  t.deepEqual(map.neutarr, ['sonarr']);
});

const postgresCases: [string, JsonRecord, boolean][] = [
  [
    'sonarr instance with postgres_enabled',
    { sonarr: instances({ A: block('S', { postgres_enabled: true }) }) },
    true,
  ],
  [
    'lidarr instance with postgres_enabled',
    { lidarr: instances({ A: block('L', { postgres_enabled: true }) }) },
    true,
  ],
  [
    'radarr with postgres_enabled false',
    { radarr: instances({ A: block('R', { postgres_enabled: false }) }) },
    false,
  ],
  ['radarr without the flag', { radarr: instances({ A: block('R') }) }, false],
  [
    'radarr with the string "true"',
    { radarr: instances({ A: block('R', { postgres_enabled: 'true' }) }) },
    false,
  ],
  ['bazarr with postgres_enabled', { bazarr: block('B', { postgres_enabled: true }) }, true],
  [
    'infinidysk with postgres_enabled',
    { infinidysk: block('I', { postgres_enabled: true }) },
    true,
  ],
  [
    'altmount disabled with postgres_enabled',
    { altmount: block('A', { enabled: false, postgres_enabled: true }) },
    false,
  ],
  [
    'pulsarr with postgres_enabled false',
    { pulsarr: block('P', { postgres_enabled: false }) },
    false,
  ],
];
for (const [what, document, expected] of postgresCases)
  test(`postgres dependency: ${what}`, (t) => {
    const map = mapOf(document);
    const key = Object.keys(document)[0] as string;
    t.is(map[key]?.includes('postgres') ?? false, expected);
  });

test('bazarr postgres is replaced by the enabled arrs', (t) => {
  const map = mapOf({
    bazarr: block('Bazarr', { postgres_enabled: true }),
    sonarr: instances({ A: block('Sonarr') }),
  });
  t.deepEqual(map.bazarr, ['sonarr']);
});

test('cli_battery enabled adds it to cli_debrid; disabled does not', (t) => {
  t.deepEqual(mapOf({ cli_battery: block('CLI Battery') }).cli_debrid, ['cli_battery']);
  t.is(mapOf({ cli_battery: block('CLI Battery', { enabled: false }) }).cli_debrid, undefined);
});

test('mediastorm stays on postgres', (t) => {
  t.deepEqual(mapOf({ mediastorm: block('MediaStorm') }).mediastorm, ['postgres']);
});

const rcloneDocument: JsonRecord = {
  rclone: instances({
    Z: block('rclone Z', { zurg_enabled: true }),
    D: block('rclone D', { decypharr_enabled: true }),
    I: block('rclone I', { core_service: 'infinidysk' }),
    Off: block('rclone Off', { enabled: false, key_type: 'infinidysk' }),
    Plain: block('rclone Plain'),
  }),
};

test('rclone: the union of the providers its enabled instances use', (t) => {
  t.deepEqual(mapOf(rcloneDocument).rclone, ['decypharr', 'infinidysk', 'zurg']);
});

test('per instance, an rclone mount keeps only its own providers; other keys pass through', (t) => {
  const graph = graphOf(rcloneDocument);
  const shipped = knowledge();
  const depsOf = (name: string): string[] => {
    const entry = graph.entries.find((candidate) => candidate.process_name === name);
    if (entry === undefined) throw new Error(name);
    return [...conditionalDepsOfEntry(entry, graph.conditional, shipped)].sort();
  };
  t.deepEqual(depsOf('rclone Off'), ['infinidysk']);
  t.deepEqual(depsOf('rclone Z'), ['zurg']);
  t.deepEqual(depsOf('rclone Plain'), []);
});
