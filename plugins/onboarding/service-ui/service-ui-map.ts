/**
 * Which service UIs the proxy exposes: every enabled process (not the API itself) with a port.
 * The key in `/service/ui/<key>/` is the config key, or `<config_key>_<instance>` for instances,
 * lower-cased with anything but letters, digits, `_` and `-` turned into `_`. Pure.
 */
import type { JsonRecord } from '../../../sdk/index.js';
import { isJsonRecord, listProcessEntries, type ProcessEntry } from '../../../sdk/index.js';

/** The proxy's path prefix. */
export const SERVICE_UI_PREFIX = '/service/ui';

/** One exposed UI. */
export interface ServiceUi {
  readonly key: string;
  readonly name: string;
  readonly port: number;
  readonly path: string;
  /** Where the proxy sends requests. */
  readonly origin: string;
}

/** The URL key of an entry. */
export function serviceUiKey(entry: ProcessEntry): string {
  const raw =
    entry.instance_name === null ? entry.config_key : `${entry.config_key}_${entry.instance_name}`;
  return raw.toLowerCase().replace(/[^a-z0-9_-]+/g, '_');
}

function upstreamHost(block: JsonRecord): string {
  const host = typeof block.host === 'string' ? block.host.trim() : '';
  // A wildcard listen address is reached on loopback.
  if (host === '' || host === '0.0.0.0' || host === '::' || host === '[::]') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The UIs of a document, in file order (the first entry wins a key clash). */
export function serviceUis(document: JsonRecord): ServiceUi[] {
  const seen = new Set<string>();
  const uis: ServiceUi[] = [];
  for (const entry of listProcessEntries(document)) {
    const { port } = entry.block;
    if (entry.self || entry.block.enabled !== true) continue;
    if (typeof port !== 'number' || !Number.isInteger(port) || port <= 0 || port > 65_535) continue;
    const key = serviceUiKey(entry);
    if (seen.has(key)) continue;
    seen.add(key);
    uis.push({
      key,
      name: entry.process_name,
      port,
      path: `${SERVICE_UI_PREFIX}/${key}`,
      origin: `http://${upstreamHost(entry.block)}:${port}`,
    });
  }
  return uis;
}

/**
 * `stackd.onboarding.service_ui_enabled` of a document; a configuration written before the
 * onboarding plugin existed kept it in `stackd.supervisor`, which still counts when the new
 * place is unset.
 */
export function serviceUiEnabled(document: JsonRecord): boolean {
  const host = document.stackd;
  if (!isJsonRecord(host)) return false;
  for (const slice of [host.onboarding, host.supervisor])
    if (isJsonRecord(slice) && typeof slice.service_ui_enabled === 'boolean')
      return slice.service_ui_enabled;
  return false;
}
