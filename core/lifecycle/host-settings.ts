/** Host settings read from the configuration's own section (`stackd`). */
import { isJsonRecord } from '../../sdk/config.js';
import type { HostOptions } from './host-options.js';

/** `stackd.lifecycle.{register,start,stop}_timeout_ms` override the host's defaults. */
export function lifecycleTimeouts(
  hostSection: Record<string, unknown>,
  defaults: HostOptions['timeouts'],
): HostOptions['timeouts'] {
  const section = isJsonRecord(hostSection.lifecycle) ? hostSection.lifecycle : {};
  const pick = (key: string, fallback: number): number => {
    const value = section[key];
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    registerMs: pick('register_timeout_ms', defaults.registerMs),
    startMs: pick('start_timeout_ms', defaults.startMs),
    stopMs: pick('stop_timeout_ms', defaults.stopMs),
  };
}

/** Where to listen: the command line first, then `stackd.api_service`, then 127.0.0.1:8000. */
export function listenAddress(
  options: Pick<HostOptions, 'host' | 'port'>,
  hostSection: Record<string, unknown>,
): { host: string; port: number } {
  const api = isJsonRecord(hostSection.api_service) ? hostSection.api_service : {};
  const host =
    options.host ?? (typeof api.host === 'string' && api.host !== '' ? api.host : '127.0.0.1');
  const port = options.port ?? (typeof api.port === 'number' ? api.port : 8000);
  return { host, port };
}

/** `stackd.plugins`, when it is a list of names. */
export function configuredPlugins(hostSection: Record<string, unknown>): string[] | undefined {
  const value = hostSection.plugins;
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? value
    : undefined;
}

const DEFAULT_COMMIT_INTERVAL_MS = 10;

/**
 * `stackd.journal`: `commit_interval_ms` (default 10: the least time between two commits, so at
 * most 100 commits a second; a SIGKILL loses at most this plus one commit; `batch_interval_ms` is
 * its earlier name), `max_events` (default 1,000,000) and `max_age_days` (default 30) for
 * retention.
 */
export function journalSettings(hostSection: Record<string, unknown>): {
  commitIntervalMs: number;
  maxEvents: number;
  maxAgeMs: number;
} {
  const section = isJsonRecord(hostSection.journal) ? hostSection.journal : {};
  const pick = (key: string, fallback: number, max: number): number => {
    const value = section[key];
    return typeof value === 'number' && Number.isFinite(value) && value > 0
      ? Math.min(value, max)
      : fallback;
  };
  return {
    commitIntervalMs: pick(
      'commit_interval_ms',
      pick('batch_interval_ms', DEFAULT_COMMIT_INTERVAL_MS, 1000),
      1000,
    ),
    maxEvents: Math.floor(pick('max_events', 1_000_000, 100_000_000)),
    maxAgeMs: pick('max_age_days', 30, 3650) * 86_400_000,
  };
}
