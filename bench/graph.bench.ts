/**
 * Graph benchmark: a synthetic 500-process media stack (instances of the arrs, mounts with
 * providers, waits on ports and mounts, postgres users). Times, as medians of many runs:
 * - `derive_and_view_ms`: a cold graph for one process (derive the whole stack from the document,
 *   then build the response), what the first request after a config change costs;
 * - `view_ms`: the response for one process from the cached derivation;
 * - `plan_startup_ms`: planStartup for every process (cold derivation included);
 * and planning time on growing synthetic graphs, to show it grows linearly with the edges.
 * Prints one JSON object on stdout. Run: `node dist/bench/graph.bench.js`.
 */
import { performance } from 'node:perf_hooks';
import type { JsonRecord, Logger } from '../sdk/index.js';
import { GraphService } from '../plugins/graph/graph-service.js';
import { buildKnowledge } from '../plugins/graph/knowledge/knowledge-build.js';
import { readShippedKnowledge } from '../plugins/graph/knowledge-files.js';
import { planWaves } from '../plugins/graph/stack/startup-plan.js';

const PROCESS_COUNT = 500;
const idle = ['node', '-e', 'setInterval(()=>{},1000)'];

/** A media-stack-like document with exactly `count` processes. */
function syntheticStack(count: number): JsonRecord {
  const doc: JsonRecord = {
    stackd: { api_service: { enabled: true, process_name: 'stackd API', port: 8000 } },
  };
  const add = (key: string, block: JsonRecord): void => {
    const existing = doc[key] as { instances: JsonRecord } | undefined;
    if (existing === undefined) doc[key] = { instances: {} };
    const instances = (doc[key] as { instances: JsonRecord }).instances;
    instances[`I${Object.keys(instances).length}`] = { enabled: true, command: idle, ...block };
  };
  doc.postgres = { enabled: true, process_name: 'PostgreSQL', port: 5432, command: idle };
  doc.plex = {
    enabled: true,
    process_name: 'Plex Media Server',
    port: 32400,
    command: idle,
    wait_for_mounts: ['/mnt/debrid/m0'],
  };
  let made = 3;
  const arrs = ['sonarr', 'radarr', 'lidarr', 'whisparr'];
  for (let index = 0; made < count; index += 1, made += 1) {
    const port = 10_000 + index;
    switch (index % 5) {
      case 0:
        add('zurg', {
          process_name: `Zurg ${index}`,
          port,
          core_service: index % 2 === 0 ? 'riven_backend' : 'cli_debrid',
        });
        break;
      case 1:
        add('rclone', {
          process_name: `rclone ${index}`,
          zurg_enabled: true,
          core_service: 'riven_backend',
          mount_dir: '/mnt/debrid',
          mount_name: `m${index - 1}`,
          wait_for_url: [`http://127.0.0.1:${port - 1}/dav/`],
        });
        break;
      default: {
        const key = arrs[index % arrs.length] as string;
        add(key, {
          process_name: `${key} ${index}`,
          port,
          postgres_enabled: index % 7 === 0,
          wait_for_dir: `/mnt/debrid/m${(index - (index % 5)) % 50}/media`,
          wait_for_url: index % 3 === 0 ? [`http://127.0.0.1:${port - 2}/ping`] : [],
        });
      }
    }
  }
  doc.prowlarr = {
    instances: {
      Default: {
        enabled: true,
        process_name: 'Prowlarr',
        port: 9696,
        command: idle,
        wait_for_url: ['http://127.0.0.1:10002/ping', 'http://127.0.0.1:10003/ping'],
      },
    },
  };
  return doc;
}

const silent: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silent,
};

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function time(runs: number, work: () => void): { median_ms: number; p95_ms: number } {
  for (let warm = 0; warm < 5; warm += 1) work();
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value: number): number => Math.round(value * 1000) / 1000;
  return {
    median_ms: round(median(samples)),
    p95_ms: round(sorted[Math.floor(sorted.length * 0.95)] as number),
  };
}

const knowledge = buildKnowledge(readShippedKnowledge());
const document = syntheticStack(PROCESS_COUNT);
const service = new GraphService({
  readDocument: () => document,
  knowledge: () => knowledge,
  supervisor: () => undefined,
  logger: silent,
});
const snapshot = service.current();
const names = snapshot.graph.entries.map((entry) => entry.process_name);
const target = 'sonarr 2';
const edges = snapshot.graph.dependencies.reduce((sum, relations) => sum + relations.size, 0);

const cold = time(200, () => {
  service.invalidate();
  service.view(target, 'all');
});
const warm = time(500, () => service.view(target, 'all'));
const plan = time(200, () => {
  service.invalidate();
  service.planStartup(names);
});
const planOnly = time(500, () => service.planStartup(names));

/** Pure planning time on a layered random DAG with n nodes and about 4n edges. */
function layered(nodes: number): number[][] {
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  return Array.from({ length: nodes }, (_, node) =>
    node === 0 ? [] : Array.from({ length: 4 }, () => Math.floor(random() * node)),
  );
}
const scaling = [10_000, 20_000, 40_000, 80_000].map((nodes) => {
  const deps = layered(nodes);
  const result = time(20, () => planWaves(deps));
  return {
    nodes,
    edges: deps.reduce((sum, list) => sum + list.length, 0),
    ...result,
    ns_per_edge: Math.round((result.median_ms * 1e6) / (nodes * 4)),
  };
});

const output = {
  benchmark: 'graph',
  processes: snapshot.graph.entries.length,
  relations: edges,
  startup_waves: service.planStartup(names).groups.length,
  derive_and_view_ms: cold,
  view_ms: warm,
  plan_startup_ms: plan,
  plan_startup_cached_ms: planOnly,
  plan_scaling: scaling,
  goal: { graph_500_processes_ms: 20 },
  goal_met: cold.median_ms < 20,
};
process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
