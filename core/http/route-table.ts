/** Every declared route, compiled once: validators, served paths, owner, collision checks. */
import { Kind, type TSchema } from '@sinclair/typebox';
import type { AnyRouteDefinition } from '../../sdk/http.js';
import { compileSchema, type CompiledSchema } from '../schema/compiler.js';
import { parameterNames, pathShape, patternMatcher, servedPaths } from './route-paths.js';
import { BootError } from '../errors/boot-error.js';

/** A route as the table keeps it. */
export interface RegisteredRoute {
  readonly owner: string;
  readonly definition: AnyRouteDefinition;
  readonly paramNames: readonly string[];
  readonly paths: readonly string[];
  readonly params: CompiledSchema | undefined;
  readonly query: CompiledSchema | undefined;
  readonly body: CompiledSchema | undefined;
  readonly responses: ReadonlyMap<number, CompiledSchema>;
}

/** Response schemas keyed by status (a single schema means 200). */
export function responseSchemas(definition: AnyRouteDefinition): Map<number, TSchema> {
  const response = definition.schema.response;
  if (Kind in response) {
    return new Map([[200, response]]);
  }
  return new Map(
    Object.entries(response as Record<string, TSchema>).map(([status, schema]) => [
      Number(status),
      schema,
    ]),
  );
}

/** The route table. */
export class RouteTable {
  private readonly byKey = new Map<string, RegisteredRoute>();
  private readonly ordered: RegisteredRoute[] = [];

  /** Add a route; throws naming both owners when a served path collides. */
  add(owner: string, definition: AnyRouteDefinition): RegisteredRoute {
    if (!definition.path.startsWith('/'))
      throw new BootError(
        'STACKD_ROUTE_INVALID',
        `route path '${definition.path}' of ${owner} must start with '/'`,
      );
    const paths = servedPaths(definition.path);
    for (const path of paths) {
      const existing = this.byKey.get(`${definition.method} ${pathShape(path)}`);
      if (existing !== undefined) {
        throw new BootError(
          'STACKD_ROUTE_DUPLICATE',
          `route ${definition.method} ${definition.path} of plugin '${owner}' collides with ${existing.definition.method} ${existing.definition.path} of plugin '${existing.owner}'`,
        );
      }
    }
    const { schema } = definition;
    const route: RegisteredRoute = {
      owner,
      definition,
      paramNames: parameterNames(definition.path),
      paths,
      params: schema.params === undefined ? undefined : compileSchema(schema.params),
      query: schema.query === undefined ? undefined : compileSchema(schema.query),
      body: schema.body === undefined ? undefined : compileSchema(schema.body),
      responses: new Map(
        [...responseSchemas(definition)].map(([status, s]) => [status, compileSchema(s)]),
      ),
    };
    for (const path of paths) this.byKey.set(`${definition.method} ${pathShape(path)}`, route);
    this.ordered.push(route);
    return route;
  }

  /** Routes in declaration order. */
  all(): readonly RegisteredRoute[] {
    return this.ordered;
  }

  /** Methods served at a concrete path (for 405 answers); HEAD wherever GET is. */
  methodsFor(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.ordered) {
      if (!route.paths.some((pattern) => patternMatcher(pattern)(path))) continue;
      methods.add(route.definition.method);
      if (route.definition.method === 'GET') methods.add('HEAD');
    }
    return [...methods];
  }
}
