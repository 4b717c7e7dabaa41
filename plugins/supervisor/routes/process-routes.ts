/** GET /process/processes, GET /process and GET /process/service-status: thin readers. */
import {
  ErrorBody,
  defineRoute,
  type DependencyGraphService,
  type Logger,
  type ParallelGroup,
  type Static,
} from '../../../sdk/index.js';
import {
  blockView,
  healthFields,
  repoUrlOf,
  statusBody,
  versionOf,
} from '../views/process-view.js';
import type { LimitsView } from '../schemas.js';
import {
  ProcessDetailBody,
  ProcessDetailQuery,
  ProcessListBody,
  ServiceStatusBody,
  ServiceStatusQuery,
} from '../schemas.js';
import type { Supervisor } from '../supervision/supervisor.js';

/** What GET /process needs besides the supervisor. */
export interface ProcessDetailDeps {
  /** The dependency graph, when its plugin is loaded. */
  readonly graph: () => DependencyGraphService | undefined;
  readonly logger: Logger;
  /** How the process is contained and limited. */
  readonly limits?: (processName: string) => Static<typeof LimitsView>;
}

export function processListRoute(supervisor: Supervisor) {
  return defineRoute({
    method: 'GET',
    path: '/process/processes',
    summary: 'Every process of the configuration, with its live status',
    tags: ['process'],
    schema: { response: ProcessListBody },
    handler: () => supervisor.listView(),
  });
}

export function processDetailRoute(supervisor: Supervisor, deps: ProcessDetailDeps) {
  return defineRoute({
    method: 'GET',
    path: '/process',
    summary: 'One process: its config, version and parallel groups',
    description:
      'parallel_groups come from the dependency graph plugin for the given scope when it is ' +
      'loaded, else the list is empty. Unknown process → 404.',
    tags: ['process'],
    schema: { query: ProcessDetailQuery, response: { 200: ProcessDetailBody, 404: ErrorBody } },
    handler: ({ query }) => {
      const entry = supervisor.requireEntry(query.process_name);
      let groups: ParallelGroup[] = [];
      const graph = deps.graph();
      if (graph !== undefined) {
        try {
          groups = graph.parallelGroups(entry.process_name, query.scope);
        } catch (error) {
          deps.logger.warn(`parallel groups of ${entry.process_name}: ${String(error)}`);
        }
      }
      return {
        process_name: entry.process_name,
        config: blockView(entry),
        version: versionOf(entry.block),
        config_key: entry.config_key,
        parallel_groups: groups.map((group) => ({ ...group, members: [...group.members] })),
        repo_url: repoUrlOf(entry.block),
        sponsorship_url:
          typeof entry.block.sponsorship_url === 'string' ? entry.block.sponsorship_url : '',
        status: supervisor.stateOf(entry).status,
        ...adoptionView(supervisor, entry.process_name),
        ...(deps.limits === undefined ? {} : { limits: deps.limits(entry.process_name) }),
      };
    },
  });
}

export function serviceStatusRoute(supervisor: Supervisor) {
  return defineRoute({
    method: 'GET',
    path: '/process/service-status',
    summary: 'Live status of one process',
    description: 'Unknown process → 404 (docs/decisions.md §12; the reference answered "stopped").',
    tags: ['process'],
    schema: { query: ServiceStatusQuery, response: { 200: ServiceStatusBody, 404: ErrorBody } },
    handler: ({ query }) => {
      const state = supervisor.stateOf(supervisor.requireEntry(query.process_name));
      const adoption = adoptionView(supervisor, state.process_name);
      return query.include_health === true
        ? { ...statusBody(state), ...healthFields(state), ...adoption }
        : { ...statusBody(state), ...adoption };
    },
  });
}

/** `adopted: true` with when and by which host start, for a process adopted from a previous host. */
function adoptionView(supervisor: Supervisor, processName: string) {
  const stamp = supervisor.adoptedBy(processName);
  return stamp === undefined ? {} : { adopted: true, ...stamp };
}
