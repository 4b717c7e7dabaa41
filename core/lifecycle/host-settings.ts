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

/** `stackd.plugins`, when it is a list of names. */
export function configuredPlugins(hostSection: Record<string, unknown>): string[] | undefined {
  const value = hostSection.plugins;
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? value
    : undefined;
}
