/** The config slice as responses may show it: secrets (url, headers) replaced by booleans. */
import { isJsonRecord, type JsonRecord } from '../../sdk/index.js';

const DEFAULTS = {
  monitor_interval_sec: 30,
  history_retention_days: 30,
  max_attempts: 5,
  retry_base_sec: 10,
};

/** A public destination: never carries the url or the headers. */
export interface PublicDestination {
  id: string;
  kind: string;
  enabled: boolean;
  url_configured: boolean;
  headers_configured: boolean;
  service_names: string[];
}

function publicDestination(raw: unknown): PublicDestination | undefined {
  if (!isJsonRecord(raw) || typeof raw.id !== 'string') return undefined;
  const headers = isJsonRecord(raw.headers) ? raw.headers : {};
  return {
    id: raw.id,
    kind: typeof raw.kind === 'string' ? raw.kind : 'webhook',
    enabled: raw.enabled !== false,
    url_configured: typeof raw.url === 'string' && raw.url.trim() !== '',
    headers_configured: Object.keys(headers).length > 0,
    service_names: Array.isArray(raw.service_names)
      ? raw.service_names.filter((name): name is string => typeof name === 'string')
      : [],
  };
}

/** Read `stackd.notifications` from the document and strip its secrets. */
export function publicConfig(document: Readonly<JsonRecord>) {
  const host = document.stackd;
  const slice = isJsonRecord(host) && isJsonRecord(host.notifications) ? host.notifications : {};
  const number = (key: keyof typeof DEFAULTS) =>
    typeof slice[key] === 'number' ? slice[key] : DEFAULTS[key];
  return {
    enabled: slice.enabled === true,
    monitor_interval_sec: number('monitor_interval_sec'),
    history_retention_days: number('history_retention_days'),
    max_attempts: number('max_attempts'),
    retry_base_sec: number('retry_base_sec'),
    destinations: (Array.isArray(slice.destinations) ? slice.destinations : [])
      .map(publicDestination)
      .filter((destination): destination is PublicDestination => destination !== undefined),
  };
}
