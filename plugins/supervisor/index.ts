/**
 * The supervisor plugin: runs the processes of the configuration file and serves the process,
 * logs and config routes and the /ws/status and /ws/logs streams. Media-stack knowledge (the
 * service catalog, onboarding, service config files, service UIs) lives in the onboarding
 * plugin, which prepares launches through `addStartPreparer`. Wiring only.
 */
import { declareProcessSeries } from './process-exposition.js';
import {
  definePlugin,
  derivedFromStack,
  dependencyGraphRef,
  notableEvent,
  processStateChanged,
  processSupervisorRef,
} from '../../sdk/index.js';
import { SupervisorConfig } from './config.js';
import { documentValidator } from './config-model/config-validation.js';
import { LogLineBus } from './logs/log-line-bus.js';
import { createProcessMetricsCollector } from './process-metrics.js';
import { listenPortOf, processUsageOf } from './list-extras.js';
import { processesHealthCheck } from './processes-health.js';
import { ProcessControl } from './process-control.js';
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
import { logsRoute, type LogRouteDeps } from './routes/log-routes.js';
import { updateNoticesRoute } from './routes/update-notices.js';
import {
  processDetailRoute,
  processListRoute,
  serviceStatusRoute,
} from './routes/process-routes.js';
import { registerLogStream } from './streams/log-stream.js';
import { registerStatusStream } from './streams/status-stream.js';
import { startupStatusRoute } from './routes/startup-status.js';
import { StartPreparers } from './start-preparers.js';
import { StartupTracker } from './startup-tracker.js';
import { Supervisor } from './supervisor.js';
import { supervisorService } from './supervisor-service.js';
import { LaunchBook } from './runtime/launch-book.js';
import { procReader } from './adoption/verify.js';
import { CgroupManager } from './cgroups/cgroup-manager.js';
import { limitEvent } from './limits/limit-event.js';
import { ProcessLimits } from './limits/process-limits.js';
import { checkStopBudget } from './stop-budget.js';
import { ConfigApplier } from './config-apply.js';
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
    const bus = new LogLineBus({
      onListenerError: (error) => ctx.logger.error('log line listener failed', { error }),
    });
    // The document is read on every status query: keep one copy until it changes.
    const readDocument = derivedFromStack(ctx.stack, (document) => document);
    let publishStatus = (): void => undefined;
    let publishScheduled = false;
    const launches = new LaunchBook(
      ctx.storage,
      ctx.logger.child('leftovers'),
      procReader,
      ctx.host.startedAt,
    );
    const cgroups = new CgroupManager({
      mode: ctx.config.cgroups,
      dataDir: ctx.host.dataDir,
      logger: ctx.logger.child('cgroups'),
    });
    const limits = new ProcessLimits({
      cgroups,
      usage: (processName, pid) => processUsageOf(ctx.metricsFeed.latest(), processName, pid),
      intervalMs: ctx.config.limit_check_ms,
      checks: ctx.config.limit_checks,
      demandUsage: () =>
        ctx.metricsFeed.subscribe(() => undefined, { everyMs: ctx.config.limit_check_ms }),
      logger: ctx.logger.child('limits'),
    });
    const supervisor = new Supervisor({
      cgroups: limits,
      onLimit: (processName, breach) => {
        limits.recordBreach(processName, breach);
        ctx.events.emit(notableEvent, limitEvent(processName, breach));
      },
      dataDir: ctx.host.dataDir,
      config: ctx.config,
      readDocument,
      logger: ctx.logger,
      bus,
      launches,
      adopter: launches,
      processUsage: (processName, pid) =>
        processUsageOf(ctx.metricsFeed.latest(), processName, pid),
      listenPort: () => listenPortOf(ctx.host.baseUrl()),
      onChange: (state) => {
        ctx.events.emit(processStateChanged, state);
        // Changes come in bursts (boot, waits): one frame per turn of the event loop.
        if (publishScheduled) return;
        publishScheduled = true;
        setImmediate(() => {
          publishScheduled = false;
          publishStatus();
        });
      },
    });
    const preparers = new StartPreparers();
    const control = new ProcessControl(
      supervisor,
      ctx.config.start_response_timeout_sec * 1000,
      preparers,
    );
    ctx.provide(processSupervisorRef, supervisorService(supervisor, control, preparers));

    const logs: LogRouteDeps = {
      bus,
      resolveLogFile: (name) => {
        // The DUMB dashboard asks for its backend's own log under the project name.
        if (/^(dmb|dumb)$/i.test(name.trim()))
          return { processName: name.trim(), file: ctx.host.logFile };
        const entry = supervisor.entry(name);
        if (entry === undefined) return undefined;
        const file = entry.self ? ctx.host.logFile : supervisor.logFile(entry.process_name);
        return { processName: entry.process_name, file };
      },
    };
    const configDeps = {
      onProcessBlockChanged: (name: string) => {
        ctx.logger.debug(`block of ${name} changed; it applies at the next start`);
        // Limits are the exception: written into the running launch's cgroup at once.
        const block = supervisor.entry(name)?.block;
        if (block !== undefined) void limits.updateFromBlock(name, block, ctx.config.limits);
      },
    };
    // Every update anyone makes (routes, the supervisor, other plugins) passes the block schemas.
    ctx.stack.addValidator(documentValidator);
    const notes = lintDocument(ctx.stack.read(), Object.keys(ctx.stack.sliceSchemas()));
    for (const warning of notes.warnings) ctx.logger.warn(`config: ${warning}`);
    for (const name of notes.disabled)
      ctx.logger.info(`${name} is disabled (a block runs only with "enabled": true)`);
    // Changes users make (POST /config, rollback, the file edited on disk) reach the processes
    // through the plan the preview shows.
    const applier = new ConfigApplier(
      supervisor,
      control,
      () => ctx.optional(dependencyGraphRef),
      ctx.logger.child('config'),
    );
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
    const startup = new StartupTracker();
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
    ctx.route(updateConfigRoute(ctx, configDeps));
    ctx.route(configSchemaRoute(ctx));
    ctx.route(processConfigSchemaRoute(ctx));
    ctx.route(saveConfigRoute(ctx));
    ctx.route(validateConfigRoute());
    ctx.route(previewConfigRoute({ stack: ctx.stack, applier }));
    ctx.route(historyRoute({ stack: ctx.stack, applier }));
    ctx.route(historyVersionRoute({ stack: ctx.stack, applier }));
    ctx.route(rollbackRoute({ stack: ctx.stack, applier }));
    publishStatus = registerStatusStream(ctx, () => supervisor.states());
    registerLogStream(ctx, logs);
    ctx.healthCheck('processes', processesHealthCheck(supervisor));
    ctx.metrics(createProcessMetricsCollector(supervisor));
    declareProcessSeries(ctx.exposition, supervisor);

    const boot = new AbortController();
    ctx.onStart(async () => {
      const graph = ctx.optional(dependencyGraphRef);
      // Probing cgroups takes the kernel a while: it runs meanwhile, adoptions need its answer.
      void cgroups.detect();
      // Reaping a crashed predecessor's leftovers begins now; every launch waits for it.
      await launches.open();
      // Leftover cgroups after the graceful reaping of recorded launches (create() awaits this).
      launches.onReleased = (ids) => cgroups.dropLeftovers(ids);
      // The cgroups of launches spared for adoption are kept with their processes.
      void launches
        .ready()
        .then(() =>
          cgroups.open((name) =>
            [...launches.sparedLaunchIds].some((id) => name.endsWith(`-${id}`)),
          ),
        );
      // In the background: the host listens at once while waits and start checks run.
      void ctx.tasks.run('boot start', async () => {
        const { started, failed } = await supervisor.startEnabled(graph, boot.signal, (names) =>
          startup.begin(names),
        );
        startup.finish(failed);
        if (boot.signal.aborted || started.length + failed.size === 0) return;
        // For people: the stack is up, or some of it is not (notifications routes these).
        ctx.events.emit(
          notableEvent,
          failed.size === 0
            ? {
                event_type: 'stackd.startup.ready',
                severity: 'success',
                title: 'stackd started every enabled process',
                body: `${started.length} process(es) running.`,
                source: 'supervisor',
              }
            : {
                event_type: 'stackd.startup.degraded',
                severity: 'critical',
                title: 'stackd started with failed processes',
                body: `Failed to start: ${[...failed.keys()].join(', ')}.`,
                source: 'supervisor',
                details: { failed: [...failed.keys()].join(', ') },
              },
        );
      });
    });
    ctx.onStop(async (signal) => {
      startup.shuttingDown();
      boot.abort();
      // A planned handover (SIGUSR2) leaves every process running for the next host to adopt.
      if (ctx.host.handingOver()) await supervisor.handOver();
      else {
        await supervisor.stopAll(ctx.config.shutdown_budget_sec * 1000, signal);
        await cgroups.removeAll();
      }
    });
  },
});
