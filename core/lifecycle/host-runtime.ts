/**
 * The host lifecycle: load → register → start → listen → stop. Plugins run in dependency order,
 * each hook within a time budget; stop runs in reverse order, bounded and idempotent.
 */
import '../di/reflect-polyfill.js';
import { chmodSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { authenticatorRef } from '../../sdk/contracts/authenticator.js';
import type { HostInfo } from '../../sdk/context.js';
import type { Logger } from '../../sdk/logger.js';
import { CapabilityRegistry } from '../capabilities/capability-registry.js';
import type { ConfigSource } from '../config/config-source.js';
import { ConfigStore } from '../config/config-store.js';
import { ConfigFileWatch } from '../config/config-watch.js';
import { clientAddressesOf } from '../http/trusted-proxies-setting.js';
import { guardOutboundSetting } from '../config/outbound-setting.js';
import type { Authenticate } from '../http/authenticate.js';
import { ClientAddresses } from '../http/client-address.js';
import { plainJsonSchema } from '../config/json-tools.js';
import { CORE_LOGGER, HOST_INFO } from '../di/tokens.js';
import { HttpServer } from '../server/http-server.js';
import { RouteTable } from '../http/route-table.js';
import { ProxyTable } from '../http/proxy-table.js';
import { uwsBuild } from '../http/uws-app.js';
import { describeError, LogSink, ScopedLogger } from '../logging/logger.js';
import { MetricsRegistry } from '../metrics/metrics-registry.js';
import { ExpositionRegistry } from '../metrics/exposition-registry.js';
import { declareHostSeries, type RequestSeries } from '../metrics/host-exposition.js';
import { pluginSliceValidator } from '../plugins/plugin-config.js';
import { orderPlugins } from '../plugins/plugin-graph.js';
import { loadPlugins, type LoadedPlugin } from '../plugins/plugin-loader.js';
import { expandPluginSpecs } from '../plugins/plugin-specs.js';
import { HostEventBus } from '../runtime/event-bus.js';
import { HealthRegistry } from '../runtime/health-registry.js';
import { StorageStatus } from '../storage/storage-status.js';
import { HostLogFile } from '../logging/host-log-file.js';
import { ServiceRegistry } from '../runtime/service-registry.js';
import { StreamHub } from '../ws/stream-hub.js';
import { prepareDataDir } from './startup-paths.js';
import type { HostOptions, RunningHost } from './host-options.js';
import { configuredPlugins, lifecycleTimeouts, listenAddress } from './host-settings.js';
import { EventJournal } from '../journal/event-journal.js';
import { BootError } from '../errors/boot-error.js';
import { openJournal, openJournalSoon, registerJournalApi } from './host-journal.js';
import { loadHostConfig } from './host-config.js';
import { registerPlugin, startPlugin, stopPlugin, type ActivePlugin } from './plugin-lifecycle.js';

export type { HostOptions, RunningHost };

/** One host instance: boot it, then stop it once. */
export class HostRuntime implements RunningHost {
  readonly routes = new RouteTable();
  readonly streams = new StreamHub();
  readonly proxies = new ProxyTable();
  readonly capabilities = new CapabilityRegistry();
  readonly health = new HealthRegistry();
  readonly services: ServiceRegistry;
  readonly sink: LogSink;
  readonly logger: Logger;
  readonly metrics: MetricsRegistry;
  readonly exposition: ExpositionRegistry;
  private requestSeries: RequestSeries | undefined;
  // Loaded first: a host that cannot serve HTTP must not start anything.
  readonly uwsBuild = uwsBuild().label;
  plugins: LoadedPlugin[] = [];
  private configStore: ConfigStore | undefined;
  private configWatch: ConfigFileWatch | undefined;
  private active: ActivePlugin[] = [];
  private server: HttpServer | undefined;
  private readonly shutdown = new AbortController();
  private stopping: Promise<void> | undefined;
  /** Set by a planned handover (see stop). */
  private handingOver = false;
  private baseUrl: string | null = null;
  private readonly container: DependencyContainer;
  private timeouts: HostOptions['timeouts'];
  private addresses = new ClientAddresses([]);
  private storageStatus: StorageStatus | undefined;
  private hostLog: HostLogFile | undefined;
  private journal: EventJournal | undefined;

  constructor(private readonly options: HostOptions) {
    this.sink = new LogSink('info', options.logWrite);
    this.logger = new ScopedLogger(this.sink, 'core');
    this.metrics = new MetricsRegistry(this.logger.child('metrics'));
    this.exposition = new ExpositionRegistry(this.logger.child('exposition'));
    this.container = rootContainer.createChildContainer();
    this.timeouts = options.timeouts;
    this.services = new ServiceRegistry(options.serviceOverrides);
  }

  get config(): ConfigStore {
    if (this.configStore === undefined) throw new Error('configuration not loaded yet');
    return this.configStore;
  }

  /** Boot fully; resolves with the base URL. On failure everything started is stopped again. */
  async boot(): Promise<string> {
    try {
      return await this.bootSteps();
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  private async bootSteps(): Promise<string> {
    const { options } = this;
    const dataDir = resolve(options.cwd, options.dataDir);
    prepareDataDir(dataDir);
    // Private whatever made it (docs/decisions.md §26): it holds the JWT secret, users and logs.
    chmodSync(dataDir, 0o700);
    this.hostLog = new HostLogFile(join(dataDir, 'logs', 'stackd.log'), this.sink);
    this.logger.info(`uWebSockets.js: ${this.uwsBuild} (native binary)`);

    const { source, store } = await loadHostConfig(options, dataDir, this.sink, this.logger);
    this.configStore = store;
    const hostSection = this.config.hostSection();
    this.timeouts = lifecycleTimeouts(hostSection, options.timeouts);
    this.addresses = clientAddressesOf(this.config);
    guardOutboundSetting(this.config);

    this.registerCore(dataDir, hostSection);
    for (const route of options.systemRoutes(this)) this.routes.add('host', route);

    const specs = expandPluginSpecs(
      options.plugins ?? configuredPlugins(hostSection),
      Object.keys(options.builtins),
    );
    this.plugins = orderPlugins(
      await loadPlugins(specs, options.builtins, options.cwd),
      (loaded) => loaded.plugin,
    );
    for (const { plugin } of this.plugins) {
      this.capabilities.declare(plugin.name, plugin.capabilities ?? []);
      if (plugin.config !== undefined) {
        this.config.declareSliceSchema(plugin.name, plainJsonSchema(plugin.config));
        this.config.addValidator(pluginSliceValidator(plugin));
      }
    }
    const registering = {
      container: this.container,
      sink: this.sink,
      dataDir,
      hostSection,
      timeouts: this.timeouts,
    };
    for (const loaded of this.plugins)
      await registerPlugin(loaded, registering, (entry) => this.active.push(entry));
    await this.checkBootDocument(source);
    if (this.journal !== undefined) registerJournalApi(this.journal, this);
    for (const entry of this.active)
      await startPlugin(entry, this.timeouts.startMs, this.capabilities, this.logger);
    this.metrics.start();

    const { host, port } = listenAddress(options, hostSection);
    this.server = new HttpServer(
      this.routes,
      this.streams,
      this.proxies,
      this.logger.child('http'),
    );
    this.bindServer(this.server);
    const boundPort = await this.server.listen(host, port);
    this.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`;
    if (this.journal !== undefined) openJournalSoon(this.journal);
    return this.baseUrl;
  }

  /**
   * The document as loaded passes the validators every later change passes (plugins added theirs
   * while registering), before anything starts; then it is the first version of the history and
   * the file is watched.
   */
  private async checkBootDocument(source: ConfigSource): Promise<void> {
    try {
      this.config.validate(this.config.read());
    } catch (error) {
      throw new BootError('STACKD_CONFIG_INVALID', `${source.readPath}: ${describeError(error)}`, {
        cause: error,
      });
    }
    const text = source.origin === 'file' ? await readFile(source.readPath, 'utf8') : undefined;
    await this.config.recordBootVersion(text);
    if (source.origin !== 'file') return;
    const watcher = new ConfigFileWatch(this.config, source.writePath, this.logger.child('config'));
    watcher.start();
    this.configWatch = watcher;
    this.health.add('host', 'config', () => watcher.health());
  }

  private registerCore(dataDir: string, hostSection: Record<string, unknown>): void {
    const info: HostInfo = {
      dataDir,
      version: this.options.version,
      baseUrl: () => this.baseUrl,
      stopBudgetMs: this.timeouts.stopMs,
      logFile: join(dataDir, 'logs', 'stackd.log'),
      docsPath: this.options.docsPath ?? null,
      startedAt: Math.round(Date.now() - process.uptime() * 1000),
      handingOver: () => this.handingOver,
    };
    const c = this.container;
    c.register(HOST_INFO, { useValue: info });
    c.register(CORE_LOGGER, { useValue: this.logger });
    c.register(ConfigStore, { useValue: this.config });
    c.register(RouteTable, { useValue: this.routes });
    c.register(StreamHub, { useValue: this.streams });
    c.register(ProxyTable, { useValue: this.proxies });
    c.register(MetricsRegistry, { useValue: this.metrics });
    c.register(ExpositionRegistry, { useValue: this.exposition });
    const hostSeries = declareHostSeries(this.exposition, {
      version: this.options.version,
      streamClients: () => this.streams.clientCounts(),
      plugins: () =>
        this.plugins.map(({ plugin }) => ({ name: plugin.name, version: plugin.version })),
    });
    this.requestSeries = hostSeries.requestSeries;
    this.config.onChange(() => hostSeries.configChanged());
    c.register(CapabilityRegistry, { useValue: this.capabilities });
    c.register(ServiceRegistry, { useValue: this.services });
    c.register(HealthRegistry, { useValue: this.health });
    const storage = new StorageStatus(dataDir);
    this.storageStatus = storage;
    this.health.add('host', 'storage', () => storage.health());
    const { journal, bus } = openJournal({
      dataDir,
      hostSection,
      logger: this.logger,
      validateEvents: this.options.validateResponses,
      config: this.config,
      health: this.health,
    });
    this.journal = journal;
    c.register(HostEventBus, { useValue: bus });
    c.register(EventJournal, { useValue: journal });
  }

  private bindServer(server: HttpServer): void {
    const authenticator = this.services.lookup(authenticatorRef);
    const authenticate: Authenticate | null =
      authenticator === undefined ? null : (request) => authenticator.authenticate(request);
    const validate = this.options.validateResponses;
    server.bind(
      {
        logger: this.logger.child('http'),
        authenticate,
        defaultBodyLimit: this.options.bodyLimitBytes,
        validateResponses: validate,
        shutdownSignal: this.shutdown.signal,
        addresses: this.addresses,
        ...(this.storageStatus === undefined ? {} : { storage: this.storageStatus }),
        ...(this.requestSeries === undefined ? {} : { requestSeries: this.requestSeries }),
      },
      {
        logger: this.logger.child('ws'),
        authenticate,
        validateMessages: validate,
        addresses: this.addresses,
      },
    );
  }

  /**
   * Stop everything in reverse order. Safe to call more than once; later calls share the first.
   * `handover`: a planned handover, where plugins leave what they run for the next host.
   */
  stop(mode: 'stop' | 'handover' = 'stop'): Promise<void> {
    if (this.stopping === undefined && mode === 'handover') this.handingOver = true;
    this.stopping ??= this.stopSteps();
    return this.stopping;
  }

  private async stopSteps(): Promise<void> {
    this.shutdown.abort(new Error('host stopping'));
    this.configWatch?.stop();
    this.server?.closeListener();
    this.streams.closeAll();
    this.metrics.stop();
    for (const entry of [...this.active].reverse())
      await stopPlugin(entry, this.timeouts.stopMs, this.capabilities, this.logger);
    // After the plugins' stop hooks: their last events are in the final batch.
    this.journal?.store.close();
    this.server?.closeAll();
    this.hostLog?.close();
  }
}
