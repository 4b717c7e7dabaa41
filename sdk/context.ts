/** The context a plugin's `register(ctx)` receives: everything it may touch. */
import type { TObject, TSchema } from '@sinclair/typebox';
import type { StackConfig } from './config.js';
import type { EventBus } from './events.js';
import type { EventKind } from './journal.js';
import type { CheckedRoute, HandlerResult, RouteSchema } from './http.js';
import type { Logger } from './logger.js';
import type { MetricsCollectorDefinition, MetricsSnapshot } from './metrics.js';
import type { Exposition } from './exposition.js';
import type { ServiceRef } from './services.js';
import type { PluginStorage } from './storage.js';
import type { ProxyDefinition } from './proxy.js';
import type { StreamDefinition, StreamHandle } from './stream.js';
import type { Static } from '@sinclair/typebox';
import type { TaskRunner } from './tasks.js';

/** Facts about the running host. */
export interface HostInfo {
  /** The data dir: every file the host writes lives below it. */
  readonly dataDir: string;
  /** stackd's version. */
  readonly version: string;
  /** The listen address once listening (`http://127.0.0.1:8000`), else null. */
  readonly baseUrl: () => string | null;
  /**
   * What each plugin's stop hooks get in all (`stackd.lifecycle.stop_timeout_ms`). A hook's
   * signal aborts {@link STOP_NOTICE_MS} before it runs out: time to SIGKILL what is left.
   */
  readonly stopBudgetMs: number;
  /** The host's own log file (`<data-dir>/logs/stackd.log`, DUMB's line format). */
  readonly logFile: string;
  /** stackd's own documentation (the package's README.md), or null when not shipped. */
  readonly docsPath: string | null;
  /** Epoch ms at which this host process started: names one host start among restarts. */
  readonly startedAt: number;
  /**
   * True once the host is stopping for a planned handover (SIGUSR2): stop hooks then leave
   * supervised processes running for the next host to adopt instead of stopping them.
   */
  readonly handingOver: () => boolean;
}

/** How long before the end of the stop budget a stop hook's signal aborts. */
export const STOP_NOTICE_MS = 2_000;

/** A health contribution: healthy, or a one-line reason. */
export type HealthResult =
  | { readonly healthy: true; readonly note?: string }
  | { readonly healthy: false; readonly details: string; readonly note?: string };

/** Reads the shared metrics snapshot core keeps. */
export interface MetricsReader {
  /** The latest snapshot, or null before the first tick. */
  latest(): MetricsSnapshot | null;
  /**
   * Called after every tick with the new snapshot; returns an unsubscribe function. `everyMs`
   * is how often this consumer needs a snapshot: collection runs at the shortest interval any
   * consumer asks for (never faster than a collector's own), so nobody pays for ticks that no
   * one reads. Without it, every collector tick.
   */
  subscribe(
    listener: (snapshot: MetricsSnapshot) => void,
    options?: { readonly everyMs?: number },
  ): () => void;
}

/** Lifecycle hook: receives a signal aborted when the hook overruns its time budget. */
export type LifecycleHook = (signal: AbortSignal) => Promise<void> | void;

/**
 * What a plugin may do. Declare-calls (`route`, `stream`, `metrics`, `capability`, `provide`,
 * `onStart`, `onStop`, `healthCheck`) are only valid during `register`; afterwards they throw.
 */
export interface PluginContext<C = unknown> {
  /** The plugin's name. */
  readonly name: string;
  readonly logger: Logger;
  /** The plugin's validated config slice (`stackd.<name>` in the config file), defaults applied. */
  readonly config: C;
  readonly storage: PluginStorage;
  /** The whole configuration document (service blocks and all). */
  readonly stack: StackConfig;
  readonly host: HostInfo;
  readonly events: EventBus;
  readonly tasks: TaskRunner;
  /** The shared metrics snapshot (every collector of every plugin). */
  readonly metricsFeed: MetricsReader;
  /**
   * The Prometheus exposition: declare this plugin's own series (`stackd_` names) during
   * register, update them any time.
   */
  readonly exposition: Exposition;

  /** Declare an HTTP route. */
  route<S extends RouteSchema, R extends HandlerResult<S>>(definition: CheckedRoute<S, R>): void;
  /** Declare a WebSocket stream; publish through the returned handle once started. */
  stream<Q extends TObject, M extends TSchema>(
    definition: StreamDefinition<Q, M>,
  ): StreamHandle<Static<Q>, Static<M>>;
  /** Declare a reverse proxy under a path prefix (HTTP and WebSocket). */
  proxy(definition: ProxyDefinition): void;
  /** Declare a metrics collector. */
  metrics(definition: MetricsCollectorDefinition): void;
  /** Turn a declared capability flag on (or bind it to a live predicate). */
  capability(flag: string, enabled: boolean | (() => boolean)): void;
  /**
   * Declare an event kind this plugin publishes with `ctx.events.publish` (its data schema goes
   * into the OpenAPI document; clients filter on its name).
   */
  eventKind(kind: EventKind): void;
  /** Contribute to `GET /health`. */
  healthCheck(name: string, check: () => Promise<HealthResult> | HealthResult): void;
  /** Provide a service under a ref this plugin owns (or an open `core.*` extension point). */
  provide<T>(ref: ServiceRef<T>, implementation: T): void;
  /** Use a service of a plugin listed in `dependsOn`; throws when it is not provided. */
  use<T>(ref: ServiceRef<T>): T;
  /**
   * A service of a plugin listed in `dependsOn` or `optionalDependsOn`, or undefined when that
   * plugin is not loaded. Call it from hooks and handlers (after every plugin registered).
   */
  optional<T>(ref: ServiceRef<T>): T | undefined;
  /** Run after every plugin registered, in dependency order, bounded in time. */
  onStart(hook: LifecycleHook): void;
  /** Run at shutdown, in reverse dependency order, bounded in time. */
  onStop(hook: LifecycleHook): void;
}
