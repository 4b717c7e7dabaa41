/**
 * The supervisor plugin's parts, built in one place: the log bus, the launch book, cgroups and
 * limits, the supervisor itself, start control, the config applier and the startup tracker.
 * `index.ts` lists what the plugin registers and hands each route the part it serves.
 */
import {
  derivedFromStack,
  dependencyGraphRef,
  notableEvent,
  processStateChanged,
  type PluginContext,
} from '../../sdk/index.js';
import { procReader } from './adoption/verify.js';
import { CgroupManager } from './cgroups/cgroup-manager.js';
import { ConfigApplier } from './supervision/config-apply.js';
import type { SupervisorConfig } from './config.js';
import { limitEvent } from './limits/limit-event.js';
import { ProcessLimits } from './limits/process-limits.js';
import { listenPortOf, processUsageOf } from './views/list-extras.js';
import { LogLineBus } from './logs/log-line-bus.js';
import { ProcessControl } from './supervision/process-control.js';
import type { ConfigRouteDeps } from './routes/config-routes.js';
import type { LogRouteDeps } from './routes/log-routes.js';
import { LaunchBook } from './runtime/launch-book.js';
import { StartPreparers } from './supervision/start-preparers.js';
import { startupEvent } from './startup/startup-event.js';
import { StartupTracker } from './startup/startup-tracker.js';
import { Supervisor } from './supervision/supervisor.js';

type SupervisorContext = PluginContext<SupervisorConfig>;

/** Everything the supervisor plugin runs, made once at register time. */
export class SupervisorRuntime {
  readonly bus: LogLineBus;
  readonly launches: LaunchBook;
  readonly cgroups: CgroupManager;
  readonly limits: ProcessLimits;
  readonly supervisor: Supervisor;
  readonly preparers = new StartPreparers();
  readonly control: ProcessControl;
  readonly applier: ConfigApplier;
  readonly startup = new StartupTracker();
  readonly logs: LogRouteDeps;
  readonly configDeps: ConfigRouteDeps;
  private readonly boot = new AbortController();
  private publishStatus = (): void => undefined;
  private publishScheduled = false;

  constructor(private readonly ctx: SupervisorContext) {
    this.bus = new LogLineBus({
      onListenerError: (error) => ctx.logger.error('log line listener failed', { error }),
    });
    this.launches = new LaunchBook(
      ctx.storage,
      ctx.logger.child('leftovers'),
      procReader,
      ctx.host.startedAt,
    );
    this.cgroups = new CgroupManager({
      mode: ctx.config.cgroups,
      dataDir: ctx.host.dataDir,
      logger: ctx.logger.child('cgroups'),
    });
    this.limits = this.createLimits();
    this.supervisor = this.createSupervisor();
    this.control = new ProcessControl(
      this.supervisor,
      ctx.config.start_response_timeout_sec * 1000,
      this.preparers,
    );
    // Changes users make (POST /config, rollback, the file edited on disk) reach the processes
    // through the plan the preview shows.
    this.applier = new ConfigApplier(
      this.supervisor,
      this.control,
      () => ctx.optional(dependencyGraphRef),
      ctx.logger.child('config'),
    );
    this.logs = { bus: this.bus, resolveLogFile: (name) => this.resolveLogFile(name) };
    this.configDeps = { onProcessBlockChanged: (name) => this.blockChanged(name) };
  }

  /** Where status frames go once /ws/status is declared; changes before that publish nothing. */
  publishStatusWith(publish: () => void): void {
    this.publishStatus = publish;
  }

  /** Opens the launch book and cgroups, then starts the enabled processes in the background. */
  async start(): Promise<void> {
    const { launches, cgroups } = this;
    const graph = this.ctx.optional(dependencyGraphRef);
    // Verifying a crashed predecessor's launches begins now; its leftovers are reaped after the
    // adoptions, and every launch waits for that.
    await launches.open();
    // Probing cgroups takes the kernel a while (each probe's removal waits for it), holding
    // threads of libuv's pool meanwhile: it begins once the launch records are read and verified,
    // which would otherwise queue behind it. Adoptions take their cgroup from the record.
    const detect = (): void => void cgroups.detect();
    void launches.verified().then(detect, detect);
    // Leftover cgroups after the graceful reaping of recorded launches (create() awaits this).
    launches.onReleased = (ids) => cgroups.dropLeftovers(ids);
    // The cgroups of launches spared for adoption are kept with their processes.
    void launches
      .reapingDone()
      .then(() =>
        cgroups.open((name) => [...launches.sparedLaunchIds].some((id) => name.endsWith(`-${id}`))),
      );
    // In the background: the host listens at once while waits and start checks run.
    void this.ctx.tasks.run('boot start', async () => {
      const { started, failed } = await this.supervisor.startEnabled(
        graph,
        this.boot.signal,
        (names) => this.startup.begin(names),
      );
      this.startup.finish(failed);
      if (this.boot.signal.aborted || started.length + failed.size === 0) return;
      // For people: the stack is up, or some of it is not (notifications routes these).
      this.ctx.events.emit(notableEvent, startupEvent(started, failed));
    });
  }

  /** Stops every process, or leaves them running for the next host on a planned handover. */
  async stop(signal: AbortSignal): Promise<void> {
    this.startup.shuttingDown();
    this.boot.abort();
    // A planned handover (SIGUSR2) leaves every process running for the next host to adopt.
    if (this.ctx.host.handingOver()) await this.supervisor.handOver();
    else {
      await Promise.all([
        this.supervisor.stopAll(this.ctx.config.shutdown_budget_sec * 1000, signal),
        this.launches.releaseNow(),
      ]);
      await this.cgroups.removeAll();
    }
  }

  private createLimits(): ProcessLimits {
    const { ctx } = this;
    return new ProcessLimits({
      cgroups: this.cgroups,
      usage: (processName, pid) => processUsageOf(ctx.metricsFeed.latest(), processName, pid),
      intervalMs: ctx.config.limit_check_ms,
      checks: ctx.config.limit_checks,
      demandUsage: () =>
        ctx.metricsFeed.subscribe(() => undefined, { everyMs: ctx.config.limit_check_ms }),
      logger: ctx.logger.child('limits'),
    });
  }

  private createSupervisor(): Supervisor {
    const { ctx, limits } = this;
    return new Supervisor({
      cgroups: limits,
      onLimit: (processName, breach) => {
        limits.recordBreach(processName, breach);
        ctx.events.emit(notableEvent, limitEvent(processName, breach));
      },
      dataDir: ctx.host.dataDir,
      config: ctx.config,
      // The document is read on every status query: keep one copy until it changes.
      readDocument: derivedFromStack(ctx.stack, (document) => document),
      logger: ctx.logger,
      bus: this.bus,
      launches: this.launches,
      adopter: this.launches,
      processUsage: (processName, pid) =>
        processUsageOf(ctx.metricsFeed.latest(), processName, pid),
      listenPort: () => listenPortOf(ctx.host.baseUrl()),
      onChange: (state) => {
        ctx.events.emit(processStateChanged, state);
        this.schedulePublish();
      },
    });
  }

  /** Changes come in bursts (boot, waits): one frame per turn of the event loop. */
  private schedulePublish(): void {
    if (this.publishScheduled) return;
    this.publishScheduled = true;
    setImmediate(() => {
      this.publishScheduled = false;
      this.publishStatus();
    });
  }

  private resolveLogFile(name: string): ReturnType<LogRouteDeps['resolveLogFile']> {
    const { host } = this.ctx;
    // The DUMB dashboard asks for its backend's own log under the project name.
    if (/^(dmb|dumb)$/i.test(name.trim())) return { processName: name.trim(), file: host.logFile };
    const entry = this.supervisor.entry(name);
    if (entry === undefined) return undefined;
    if (entry.self) return { processName: entry.process_name, file: host.logFile };
    const { process_name: processName } = entry;
    const file = this.supervisor.logFile(processName);
    if (file === null) return { processName, file };
    // The host's own log is written unredacted, so only a process's log can skip the scan.
    return {
      processName,
      file,
      redacted: () => this.supervisor.redactedLogRange(processName, file),
    };
  }

  private blockChanged(name: string): void {
    this.ctx.logger.debug(`block of ${name} changed; it applies at the next start`);
    // Limits are the exception: written into the running launch's cgroup at once.
    const block = this.supervisor.entry(name)?.block;
    if (block !== undefined) void this.limits.updateFromBlock(name, block, this.ctx.config.limits);
  }
}
