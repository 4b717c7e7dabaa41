/**
 * `GET /metrics/prometheus`: the host's Prometheus exposition, always in a text format (OpenMetrics
 * when the scraper prefers it, else the text format 0.0.4). `GET /metrics` stays the dashboard's
 * JSON and answers the same text when asked for it; this path lets a scrape config name a URL
 * that never depends on the Accept header.
 */
import {
  EXPOSITION_PATH,
  ExpositionBody,
  PROMETHEUS_CAPABILITY,
  defineRoute,
  eraseRoute,
  rawReply,
  type AnyRouteDefinition,
} from '../sdk/index.js';
import type { RunningHost } from '../core/lifecycle/host-runtime.js';

/** The route, and the capability flag saying it exists. */
export function prometheusRoute(host: RunningHost): AnyRouteDefinition {
  host.capabilities.declare('host', [PROMETHEUS_CAPABILITY]);
  host.capabilities.set('host', PROMETHEUS_CAPABILITY, true);
  return eraseRoute(
    defineRoute({
      method: 'GET',
      path: EXPOSITION_PATH,
      summary: 'Prometheus exposition of the host, its processes and plugins',
      description:
        'Every series is prefixed `stackd_`. With authentication on, send a user access token or a scrape token (`POST /api/auth/scrape-tokens`), which reads this route and `GET /metrics` only.',
      tags: ['host'],
      schema: { response: ExpositionBody },
      handler: async (request) => {
        const text = await host.exposition.render(request.headers.accept);
        return rawReply(200, { 'content-type': text.contentType }, text.parts);
      },
    }),
  );
}
