/**
 * The supervisor plugin: runs the processes of the configuration file and serves the process,
 * logs and config routes and the /ws/status and /ws/logs streams. Media-stack knowledge (the
 * service catalog, onboarding, service config files, service UIs) lives in the onboarding
 * plugin, which prepares launches through `addStartPreparer`. Wiring only.
 */
import { declareProcessSeries } from './metrics/process-exposition.js';
import { definePlugin, dependencyGraphRef, processSupervisorRef } from '../../sdk/index.js';
import { SupervisorConfig } from './config.js';
import { documentValidator } from './config-model/config-validation.js';
import { createProcessMetricsCollector } from './metrics/process-metrics.js';
import { processesHealthCheck } from './supervision/processes-health.js';
import {
  configSchemaRoute,
  getConfigRoute,
  processConfigSchemaRoute,
  saveConfigRoute,
  updateConfigRoute,
  validateConfigRoute,
} from './routes/config-routes.js';
import {
  legacyStartRoute,
  legacyStopRoute,
  restartServiceRoute,
  startServiceRoute,
  stopServiceRoute,
} from './routes/control-routes.js';
import { logsRoute } from './routes/log-routes.js';
import { updateNoticesRoute } from './routes/update-notice-routes.js';
import {
  processDetailRoute,
  processListRoute,
  serviceStatusRoute,
} from './routes/process-routes.js';
import { registerLogStream } from './streams/log-stream.js';
import { registerStatusStream } from './streams/status-stream.js';
import { startupStatusRoute } from './routes/startup-routes.js';
import { supervisorService } from './supervision/supervisor-service.js';
import { SupervisorRuntime } from './supervisor-runtime.js';
import { checkStopBudget } from './supervision/stop-budget.js';
import { TreeReadings } from './metrics/tree-usage.js';
import { lintDocument } from './config-model/config-lint.js';
import {
  historyRoute,
  historyVersionRoute,
  previewConfigRoute,
  rollbackRoute,
} from './routes/config-change-routes.js';

export default definePlugin({
  name: 'supervisor',
  version: '0.1.0',
  apiVersion: 1,
  optionalDependsOn: ['graph'],
  capabilities: ['startup_lifecycle'],
  // The config routes edit the whole document.
  configAccess: 'document',
  config: SupervisorConfig,
  register(ctx) {
    checkStopBudget(ctx.config.shutdown_budget_sec, ctx.host.stopBudgetMs);
    const runtime = new SupervisorRuntime(ctx);
    const { supervisor, control, limits, applier, startup, logs } = runtime;
    ctx.provide(processSupervisorRef, supervisorService(supervisor, control, runtime.preparers));
    // Every update anyone makes (routes, the supervisor, other plugins) passes the block schemas.
    ctx.stack.addValidator(documentValidator);
    const notes = lintDocument(ctx.stack.read(), Object.keys(ctx.stack.sliceSchemas()));
    for (const warning of notes.warnings) ctx.logger.warn(`config: ${warning}`);
    for (const name of notes.disabled)
      ctx.logger.info(`${name} is disabled (a block runs only with "enabled": true)`);
    ctx.stack.onChange((change) => {
      if (change.apply) void applier.apply(applier.plan(change.previous, change.current));
    });

    // Routes and streams, in one list.
    ctx.route(processListRoute(supervisor));
    ctx.route(
      processDetailRoute(supervisor, {
        graph: () => ctx.optional(dependencyGraphRef),
        logger: ctx.logger,
        limits: (name) => limits.view(name),
      }),
    );
    ctx.route(serviceStatusRoute(supervisor));
    ctx.route(updateNoticesRoute());
    ctx.route(startupStatusRoute(startup, supervisor));
    ctx.capability('startup_lifecycle', true);
    ctx.route(startServiceRoute(supervisor, control));
    ctx.route(restartServiceRoute(supervisor, control));
    ctx.route(stopServiceRoute(supervisor, control));
    ctx.route(legacyStartRoute(supervisor, control, false));
    ctx.route(legacyStartRoute(supervisor, control, true));
    ctx.route(legacyStopRoute(supervisor, control));
    ctx.route(logsRoute(logs));
    ctx.route(getConfigRoute(ctx));
    ctx.route(updateConfigRoute(ctx, runtime.configDeps));
    ctx.route(configSchemaRoute(ctx));
    ctx.route(processConfigSchemaRoute(ctx));
    ctx.route(saveConfigRoute(ctx));
    ctx.route(validateConfigRoute());
    ctx.route(previewConfigRoute({ stack: ctx.stack, applier }));
    ctx.route(historyRoute({ stack: ctx.stack, applier }));
    ctx.route(historyVersionRoute({ stack: ctx.stack, applier }));
    ctx.route(rollbackRoute({ stack: ctx.stack, applier }));
    runtime.publishStatusWith(registerStatusStream(ctx, () => supervisor.states()));
    registerLogStream(ctx, logs);
    ctx.healthCheck('processes', processesHealthCheck(supervisor));
    // The metrics ticks' readings of the process trees serve the scrapes that follow them.
    const treeReadings = new TreeReadings();
    ctx.metrics(createProcessMetricsCollector(supervisor, { readings: treeReadings }));
    declareProcessSeries(ctx.exposition, supervisor, treeReadings);

    ctx.onStart(() => runtime.start());
    ctx.onStop((signal) => runtime.stop(signal));
  },
});
