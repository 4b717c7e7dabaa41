/** What the host is given before boot, and what system routes and tests see of a running host. */
import type { ExpositionRegistry } from '../metrics/exposition-registry.js';
import type { LogSink } from '../logging/logger.js';
import type { Logger } from '../../sdk/logger.js';
import type { AnyRouteDefinition } from '../../sdk/http.js';
import type { CapabilityRegistry } from '../capabilities/capability-registry.js';
import type { ConfigStore } from '../config/config-store.js';
import type { ProxyTable } from '../http/proxy-table.js';
import type { RouteTable } from '../http/route-table.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import type { BuiltinPlugins, LoadedPlugin } from '../plugins/plugin-loader.js';
import type { HealthRegistry } from '../runtime/health-registry.js';
import type { StreamHub } from '../ws/stream-hub.js';

/** Everything the host decides before boot. */
export interface HostOptions {
  readonly version: string;
  readonly cwd: string;
  readonly dataDir: string;
  readonly configPath: string | undefined;
  readonly demoPath: string;
  readonly demoDir: string;
  /** stackd's own documentation (the package README), offered to plugins; absent in some tests. */
  readonly docsPath?: string;
  /** Listen address; undefined falls back to `stackd.api_service`, then the defaults. */
  readonly host: string | undefined;
  readonly port: number | undefined;
  /** Plugin specs; undefined means `stackd.plugins` from the config, else every built-in. */
  readonly plugins: readonly string[] | undefined;
  readonly builtins: BuiltinPlugins;
  readonly validateResponses: boolean;
  readonly bodyLimitBytes: number;
  readonly timeouts: {
    readonly registerMs: number;
    readonly startMs: number;
    readonly stopMs: number;
  };
  /** Host-owned routes (system routes), given the running host. */
  readonly systemRoutes: (host: RunningHost) => readonly AnyRouteDefinition[];
  /** Service implementations by ref id that replace what plugins provide (tests). */
  readonly serviceOverrides?: ReadonlyMap<string, unknown>;
  /** Where log lines go (stderr by default). */
  readonly logWrite?: (line: string) => void;
}

/** What system routes and tests see of a running host. */
export interface RunningHost {
  readonly routes: RouteTable;
  readonly streams: StreamHub;
  readonly proxies: ProxyTable;
  readonly capabilities: CapabilityRegistry;
  readonly health: HealthRegistry;
  readonly metrics: MetricsRegistry;
  /** The Prometheus families of core and every plugin. */
  readonly exposition: ExpositionRegistry;
  readonly config: ConfigStore;
  readonly plugins: readonly LoadedPlugin[];
  readonly logger: Logger;
  /** The uWebSockets.js build serving HTTP, e.g. `@btc-vision/uwebsockets.js 20.57.0`. */
  readonly uwsBuild: string;
  /** The host's log threshold (read and overridden by the runtime-log-level routes). */
  readonly sink: LogSink;
}
