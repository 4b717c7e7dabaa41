/**
 * The `PluginContext` a plugin's register() receives, resolved from the plugin's child
 * container. Declarations go to core's registries under the plugin's name; after register()
 * returns the context is sealed and declare-calls throw.
 */
import '../di/reflect-polyfill.js';
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { inject, injectable } from 'tsyringe';
import type {
  HealthResult,
  HostInfo,
  LifecycleHook,
  MetricsReader,
  PluginContext,
} from '../../sdk/context.js';
import type { EventBus } from '../../sdk/events.js';
import {
  eraseRoute,
  type CheckedRoute,
  type HandlerResult,
  type RouteDefinition,
  type RouteSchema,
} from '../../sdk/http.js';
import type { Logger } from '../../sdk/logger.js';
import type { MetricsCollectorDefinition } from '../../sdk/metrics.js';
import type { Plugin } from '../../sdk/plugin.js';
import type { ServiceRef } from '../../sdk/services.js';
import type { StreamDefinition, StreamHandle } from '../../sdk/stream.js';
import type { ProxyDefinition } from '../../sdk/proxy.js';
import { ProxyTable } from '../http/proxy-table.js';
import { CapabilityRegistry } from '../capabilities/capability-registry.js';
import { ConfigStore } from '../config/config-store.js';
import {
  HOST_INFO,
  PLUGIN,
  PLUGIN_CONFIG,
  PLUGIN_LOGGER,
  PLUGIN_STORAGE,
  PLUGIN_TASKS,
} from '../di/tokens.js';
import { RouteTable } from '../http/route-table.js';
import { MetricsRegistry } from '../metrics/metrics-registry.js';
import { ExpositionRegistry } from '../metrics/exposition-registry.js';
import { PluginExposition } from './plugin-exposition.js';
import type { Exposition } from '../../sdk/exposition.js';
import { HostEventBus } from '../runtime/event-bus.js';
import { EventJournal } from '../journal/event-journal.js';
import type { EventKind } from '../../sdk/journal.js';
import { HealthRegistry } from '../runtime/health-registry.js';
import { ServiceRegistry } from '../runtime/service-registry.js';
import type { PluginTasks } from '../runtime/task-runner.js';
import type { FolderStorage } from '../storage/plugin-storage.js';
import { StreamHub } from '../ws/stream-hub.js';
import { BootError } from '../errors/boot-error.js';
import { PluginMetricsReader, PluginStack, Subscriptions } from './plugin-resources.js';
import type { StackConfig } from '../../sdk/config.js';

/** The context of one plugin, plus what core needs back from it (hooks, cleanup). */
@injectable()
export class PluginScope implements PluginContext<unknown> {
  readonly startHooks: LifecycleHook[] = [];
  readonly stopHooks: LifecycleHook[] = [];
  readonly events: EventBus;
  readonly stack: StackConfig;
  readonly metricsFeed: MetricsReader;
  readonly exposition: Exposition;
  /** Held until the plugin stops; its size shows leaks in tests. */
  readonly subscriptions = new Subscriptions();
  private sealed = false;

  constructor(
    @inject(PLUGIN) private readonly plugin: Plugin,
    @inject(PLUGIN_LOGGER) readonly logger: Logger,
    @inject(PLUGIN_CONFIG) private readonly configBox: { readonly value: unknown },
    @inject(PLUGIN_STORAGE) readonly storage: FolderStorage,
    @inject(PLUGIN_TASKS) readonly tasks: PluginTasks,
    @inject(HOST_INFO) readonly host: HostInfo,
    @inject(ConfigStore) store: ConfigStore,
    @inject(RouteTable) private readonly routes: RouteTable,
    @inject(StreamHub) private readonly streams: StreamHub,
    @inject(ProxyTable) private readonly proxies: ProxyTable,
    @inject(MetricsRegistry) private readonly metricsRegistry: MetricsRegistry,
    @inject(CapabilityRegistry) private readonly capabilities: CapabilityRegistry,
    @inject(ServiceRegistry) private readonly services: ServiceRegistry,
    @inject(HealthRegistry) private readonly health: HealthRegistry,
    @inject(HostEventBus) eventBus: HostEventBus,
    @inject(ExpositionRegistry) expositionRegistry: ExpositionRegistry,
    @inject(EventJournal) private readonly journal: EventJournal,
  ) {
    const scoped = eventBus.scoped(plugin.name);
    this.events = scoped.bus;
    this.subscriptions.keep(scoped.dispose);
    this.stack = new PluginStack(
      store,
      plugin.name,
      plugin.configAccess ?? 'own-slice',
      this.subscriptions,
    );
    this.metricsFeed = new PluginMetricsReader(metricsRegistry, this.subscriptions);
    this.exposition = new PluginExposition(expositionRegistry, plugin.name, (call) =>
      this.assertOpen(call),
    );
  }

  /** Release every listener, validator and subscription the plugin made (at its stop). */
  dispose(): void {
    this.subscriptions.releaseAll();
  }

  get config(): unknown {
    return this.configBox.value;
  }

  get name(): string {
    return this.plugin.name;
  }

  /** End of register(): further declare-calls throw. */
  seal(): void {
    this.sealed = true;
  }

  route<S extends RouteSchema, R extends HandlerResult<S>>(definition: CheckedRoute<S, R>): void {
    this.assertOpen('route');
    const tagged: RouteDefinition<S> =
      definition.tags === undefined ? { ...definition, tags: [this.name] } : definition;
    this.routes.add(this.name, eraseRoute(tagged));
    if (definition.capability !== undefined)
      this.capabilities.set(this.name, definition.capability, true);
  }

  stream<Q extends TObject, M extends TSchema>(
    definition: StreamDefinition<Q, M>,
  ): StreamHandle<Static<Q>, Static<M>> {
    this.assertOpen('stream');
    return this.streams.register(this.name, definition);
  }

  proxy(definition: ProxyDefinition): void {
    this.assertOpen('proxy');
    this.proxies.add(this.name, definition);
  }

  metrics(definition: MetricsCollectorDefinition): void {
    this.assertOpen('metrics');
    this.metricsRegistry.add(this.name, definition);
  }

  capability(flag: string, enabled: boolean | (() => boolean)): void {
    this.assertOpen('capability');
    this.capabilities.set(this.name, flag, enabled);
  }

  eventKind(kind: EventKind): void {
    this.assertOpen('eventKind');
    this.journal.declare(this.name, kind);
  }

  healthCheck(name: string, check: () => Promise<HealthResult> | HealthResult): void {
    this.assertOpen('healthCheck');
    this.health.add(this.name, name, check);
  }

  provide<T>(ref: ServiceRef<T>, implementation: T): void {
    this.assertOpen('provide');
    this.services.provide(this.name, ref, implementation);
  }

  use<T>(ref: ServiceRef<T>): T {
    if (ref.owner !== 'core' && !(this.plugin.dependsOn ?? []).includes(ref.owner)) {
      throw new BootError(
        'STACKD_SERVICE_UNDECLARED',
        `plugin '${this.name}' uses service '${ref.id}' of plugin '${ref.owner}' without listing '${ref.owner}' in dependsOn`,
      );
    }
    const service = this.services.lookup(ref);
    if (service === undefined)
      throw new BootError(
        'STACKD_SERVICE_MISSING',
        `service '${ref.id}' used by plugin '${this.name}' is not provided`,
      );
    return service;
  }

  optional<T>(ref: ServiceRef<T>): T | undefined {
    const declared = [...(this.plugin.dependsOn ?? []), ...(this.plugin.optionalDependsOn ?? [])];
    if (ref.owner !== 'core' && !declared.includes(ref.owner)) {
      throw new BootError(
        'STACKD_SERVICE_UNDECLARED',
        `plugin '${this.name}' uses service '${ref.id}' of plugin '${ref.owner}' without declaring '${ref.owner}' in dependsOn or optionalDependsOn`,
      );
    }
    return this.services.lookup(ref);
  }

  onStart(hook: LifecycleHook): void {
    this.assertOpen('onStart');
    this.startHooks.push(hook);
  }

  onStop(hook: LifecycleHook): void {
    this.assertOpen('onStop');
    this.stopHooks.push(hook);
  }

  private assertOpen(call: string): void {
    if (this.sealed)
      throw new BootError(
        'STACKD_DECLARE_AFTER_REGISTER',
        `plugin '${this.name}' called ctx.${call}() after register(); declare everything during register`,
      );
  }
}
