/** `GET /process/dependency-graph`: the graph of one process. */
import { ErrorBody, InputError, NotFoundError, defineRoute } from '../../../sdk/index.js';
import type { GraphService } from '../graph-service.js';
import { DependencyGraphQuery, DependencyGraphResponse } from '../schemas.js';
import { GRAPH_PROCESS_NAME_REQUIRED, PROCESS_NOT_FOUND } from '../errors.js';

/** The route, bound to the service. */
export function dependencyGraphRoute(service: GraphService) {
  return defineRoute({
    method: 'GET',
    path: '/process/dependency-graph',
    summary: 'Dependency graph of a process',
    description:
      'Relations derived from the configuration, each with its signals and strength. Edges point from dependency to dependent; scope=all adds soft linkage.',
    tags: ['process'],
    schema: {
      query: DependencyGraphQuery,
      response: { 200: DependencyGraphResponse, 404: ErrorBody },
    },
    handler: (request) => {
      const processName = request.query.process_name.trim();
      if (processName === '')
        throw new InputError(GRAPH_PROCESS_NAME_REQUIRED, 'process_name is required', {
          field: 'process_name',
        });
      const view = service.view(processName, request.query.scope ?? 'runtime');
      if (view === undefined)
        throw new NotFoundError(PROCESS_NOT_FOUND, `Process not found: ${processName}`);
      return view;
    },
  });
}
