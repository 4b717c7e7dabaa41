/**
 * The supervisor plugin: runs the processes of the configuration file and serves the process,
 * logs and config routes and the /ws/status and /ws/logs streams. Media-stack knowledge (the
 * service catalog, onboarding, service config files, service UIs) lives in the onboarding
 * plugin, which prepares launches through `addStartPreparer`. Wiring only.
 */
import {
  definePlugin,
  dependencyGraphRef,
  processStateChanged,
  processSupervisorRef,
  type JsonRecord,
} from '../../sdk/index.js';
import { SupervisorConfig } from './config.js';
import { registerConfigRoutes } from './config-routes/register-config-routes.js';
import { LogLineBus } from './logs/log-line-bus.js';
import { registerLogRoutes } from './logs/register-log-routes.js';
import { createProcessMetricsCollector } from './process-metrics.js';
import { processesHealth } from './processes-health.js';
import { ProcessControl } from './routes/control.js';
import { registerControlRoutes } from './routes/control-routes.js';
import { registerProcessRoutes } from './routes/process-routes.js';
import { registerStatusStream } from './routes/status-stream.js';
import { StartPreparers } from './start-preparers.js';
import { Supervisor } from './supervisor.js';
import { supervisorService } from './supervisor-service.js';
import { LaunchBook } from './runtime/launch-book.js';
import { checkStopBudget } from './stop-budget.js';

export default definePlugin({
  name: 'supervisor',
  version: '0.1.0',
  apiVersion: 1,
  optionalDependsOn: ['graph'],
  // The config routes edit the whole document.
  configAccess: 'document',
  config: SupervisorConfig,
  register(ctx) {
    checkStopBudget(ctx.config.shutdown_budget_sec, ctx.host.stopBudgetMs);
    const bus = new LogLineBus({
      onListenerError: (error) => ctx.logger.error('log line listener failed', { error }),
    });
    // The document is read on every status query: keep one copy until it changes.
    let document: JsonRecord | undefined;
    ctx.stack.onChange(() => (document = undefined));
    let publishStatus = (): void => undefined;
    let publishScheduled = false;
    const launches = new LaunchBook(ctx.storage, ctx.logger.child('leftovers'));
    const supervisor = new Supervisor({
      dataDir: ctx.host.dataDir,
      config: ctx.config,
      readDocument: () => (document ??= ctx.stack.read()),
      logger: ctx.logger,
      bus,
      launches,
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

    registerProcessRoutes(ctx, supervisor);
    registerControlRoutes(ctx, supervisor, control);
    publishStatus = registerStatusStream(ctx, () => supervisor.states());
    registerLogRoutes(ctx, {
      bus,
      resolveLogFile: (name) => {
        const entry = supervisor.entry(name);
        return entry === undefined
          ? undefined
          : { processName: entry.process_name, file: supervisor.logFile(entry.process_name) };
      },
    });
    registerConfigRoutes(ctx, {
      onProcessBlockChanged: (name) =>
        ctx.logger.debug(`block of ${name} changed; it applies at the next start`),
    });
    ctx.healthCheck('processes', () => processesHealth(supervisor));
    ctx.metrics(createProcessMetricsCollector(supervisor));

    const boot = new AbortController();
    ctx.onStart(async () => {
      const graph = ctx.optional(dependencyGraphRef);
      // Reaping a crashed predecessor's leftovers begins now; every launch waits for it.
      await launches.open();
      // In the background: the host listens at once while waits and start checks run.
      void ctx.tasks.run('boot start', () => supervisor.startEnabled(graph, boot.signal));
    });
    ctx.onStop(async (signal) => {
      boot.abort();
      await supervisor.stopAll(ctx.config.shutdown_budget_sec * 1000, signal);
    });
  },
});
