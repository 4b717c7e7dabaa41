/**
 * The graph plugin: `GET /process/dependency-graph` and the startup plan the supervisor follows
 * (`graph.dependencies`). Wiring only.
 */
import { definePlugin, dependencyGraphRef, processSupervisorRef } from '../../sdk/index.js';
import { GraphConfig, extensionsOf, validateGraphSlice } from './config.js';
import { GraphService } from './graph-service.js';
import { buildKnowledge } from './knowledge/knowledge-build.js';
import { readShippedKnowledge } from './knowledge-files.js';
import type { KnowledgeFiles } from './knowledge/knowledge.js';
import { dependencyGraphRoute } from './routes/graph-routes.js';

export default definePlugin({
  name: 'graph',
  version: '0.1.0',
  apiVersion: 1,
  dependsOn: [],
  optionalDependsOn: ['supervisor'],
  config: GraphConfig,
  register(ctx) {
    let shipped: KnowledgeFiles | undefined;
    const service = new GraphService({
      readDocument: () => ctx.stack.read(),
      knowledge: (document) =>
        buildKnowledge((shipped ??= readShippedKnowledge()), extensionsOf(document)),
      supervisor: () => ctx.optional(processSupervisorRef),
      logger: ctx.logger,
    });
    ctx.provide(dependencyGraphRef, service);
    ctx.route(dependencyGraphRoute(service));
    const removeValidator = ctx.stack.addValidator(validateGraphSlice);
    // Subscribed now, not at start: the supervisor may plan before this plugin's start hook.
    const unsubscribe = ctx.stack.onChange(() => service.invalidate());
    ctx.onStart(() => {
      // Derive once now: bad data files fail the boot, and cycles are logged at startup.
      service.current();
    });
    ctx.onStop(() => {
      unsubscribe();
      removeValidator();
    });
  },
});
