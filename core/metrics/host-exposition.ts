/**
 * The host's own series: build, configuration reloads, HTTP traffic by route template,
 * WebSocket clients per stream, loaded plugins and the host process itself. Requests are counted
 * by the route table's templates (`/process/logs/:name` style), so label values stay bounded.
 */
import type {
  ExpositionCounter,
  ExpositionCounterSeries,
  ExpositionHistogram,
  ExpositionHistogramSeries,
} from '../../sdk/exposition.js';
import type { ExpositionRegistry } from './exposition-registry.js';

/** What the host series read at a scrape. */
export interface HostExpositionSource {
  readonly version: string;
  /** Clients per declared stream path. */
  streamClients(): ReadonlyArray<{ readonly stream: string; readonly clients: number }>;
  /** Loaded plugins with their versions. */
  plugins(): ReadonlyArray<{ readonly name: string; readonly version: string }>;
}

/** The HTTP series of one route template: told once per answered request. */
export interface RouteRequestSeries {
  observe(status: number, seconds: number): void;
}

/** The HTTP series of a route template (method and template as the route table declares them). */
export type RequestSeries = (method: string, route: string) => RouteRequestSeries;

/** Latency buckets from a cached answer (0.5 ms) to a slow handler (10 s). */
const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10,
];

/** Declare the host families; returns the request observer and the config-reload marker. */
export function declareHostSeries(
  registry: ExpositionRegistry,
  source: HostExpositionSource,
): { readonly requestSeries: RequestSeries; readonly configChanged: () => void } {
  registry
    .gauge<'version' | 'node'>('core', {
      name: 'stackd_build_info',
      help: 'Always 1; labels name the stackd and Node.js versions',
      labelNames: ['version', 'node'],
    })
    .set({ version: source.version, node: process.version }, 1);
  const generation = registry.gauge('core', {
    name: 'stackd_config_generation',
    help: 'Configuration generation: 1 at start, one more per applied change',
  });
  const reloaded = registry.gauge('core', {
    name: 'stackd_config_last_reload_timestamp_seconds',
    help: 'When the configuration was last loaded or changed (Unix seconds)',
  });
  let configGeneration = 1;
  generation.set({}, configGeneration);
  reloaded.set({}, Date.now() / 1000);
  const requests = registry.counter<'method' | 'route' | 'status'>('core', {
    name: 'stackd_http_requests_total',
    help: 'HTTP requests answered, by route template and status',
    labelNames: ['method', 'route', 'status'],
  });
  const latency = registry.histogram<'method' | 'route'>('core', {
    name: 'stackd_http_request_duration_seconds',
    help: 'Time from request to the end of the response, by route template',
    labelNames: ['method', 'route'],
    buckets: LATENCY_BUCKETS,
  });
  declareScrapeTimeSeries(registry, source);
  return {
    requestSeries: (method, route) => new RouteSeries(requests, latency, method, route),
    configChanged: () => {
      configGeneration += 1;
      generation.set({}, configGeneration);
      reloaded.set({}, Date.now() / 1000);
    },
  };
}

function declareScrapeTimeSeries(registry: ExpositionRegistry, source: HostExpositionSource): void {
  const clients = registry.gauge<'stream'>('core', {
    name: 'stackd_websocket_clients',
    help: 'Connected WebSocket clients per stream',
    labelNames: ['stream'],
  });
  const loaded = registry.gauge('core', {
    name: 'stackd_plugins_loaded',
    help: 'Plugins loaded by this host',
  });
  const pluginInfo = registry.gauge<'plugin' | 'version'>('core', {
    name: 'stackd_plugin_info',
    help: 'Always 1 per loaded plugin; labels name it and its version',
    labelNames: ['plugin', 'version'],
  });
  const cpu = registry.counter('core', {
    name: 'stackd_host_cpu_seconds_total',
    help: 'CPU time (user and system) used by the stackd process itself',
  });
  const memory = registry.gauge('core', {
    name: 'stackd_host_resident_memory_bytes',
    help: 'Resident memory of the stackd process itself',
  });
  registry.beforeScrape('core', () => {
    for (const { stream, clients: count } of source.streamClients()) clients.set({ stream }, count);
    const plugins = source.plugins();
    loaded.set({}, plugins.length);
    pluginInfo.reset();
    for (const plugin of plugins)
      pluginInfo.set({ plugin: plugin.name, version: plugin.version }, 1);
    const usage = process.cpuUsage();
    cpu.setTotal({}, (usage.user + usage.system) / 1e6);
    memory.set({}, process.memoryUsage.rss());
  });
}

/**
 * One route template's request count by status and its latency, bound on first use: a request
 * then neither builds a label set nor looks one up. Nothing is exposed before the route's first
 * answer, as when the label sets were looked up per request.
 */
class RouteSeries implements RouteRequestSeries {
  private readonly byStatus = new Map<number, ExpositionCounterSeries>();
  private latency: ExpositionHistogramSeries | undefined;

  constructor(
    private readonly requests: ExpositionCounter<'method' | 'route' | 'status'>,
    private readonly latencies: ExpositionHistogram<'method' | 'route'>,
    private readonly method: string,
    private readonly route: string,
  ) {}

  observe(status: number, seconds: number): void {
    let counter = this.byStatus.get(status);
    if (counter === undefined) {
      counter = this.requests.labels({ method: this.method, route: this.route, status });
      this.byStatus.set(status, counter);
    }
    counter.inc(1);
    this.latency ??= this.latencies.labels({ method: this.method, route: this.route });
    this.latency.observe(seconds);
  }
}
