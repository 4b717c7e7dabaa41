/**
 * Reading and saving the notification settings (docs/original-product.md §8). Secrets are write-only:
 * GET blanks url and headers and says whether they are set; a blank url or empty headers posted
 * back keeps the saved ones of the same destination id. service_names must name currently
 * enabled processes (400 naming them); webhook URLs are checked (http/https, a host, no
 * credentials).
 */
import { randomUUID } from 'node:crypto';
import {
  BadRequestError,
  checkValue,
  isJsonRecord,
  listProcessEntries,
  withDefaults,
  type JsonRecord,
} from '../../sdk/index.js';
import { NotificationsConfig } from './config.js';
import { CONFIG_INVALID, SERVICE_UNKNOWN } from './errors.js';

/** The slice of a document, defaults applied (invalid parts fall back to defaults). */
export function currentSettings(document: Readonly<JsonRecord>): NotificationsConfig {
  const host = document.stackd;
  const raw = isJsonRecord(host) && isJsonRecord(host.notifications) ? host.notifications : {};
  const filled = withDefaults(NotificationsConfig, raw);
  return checkValue(NotificationsConfig, filled).length === 0
    ? (filled as NotificationsConfig)
    : (withDefaults(NotificationsConfig, {}) as NotificationsConfig);
}

/** Names of the processes enabled now (any block with enabled true and a process_name). */
export function enabledProcessNames(document: Readonly<JsonRecord>): string[] {
  return listProcessEntries(document)
    .filter((entry) => entry.block.enabled === true || entry.block.enabled === 'true')
    .map((entry) => entry.process_name);
}

/** The settings as responses show them. */
export function publicSettings(config: NotificationsConfig, enabled: readonly string[]) {
  return {
    ...config,
    destinations: config.destinations.map((destination) => ({
      ...destination,
      url: '' as const,
      headers: {},
      url_configured: destination.url.trim() !== '',
      headers_configured: Object.keys(destination.headers).length > 0,
      service_names: destination.service_names.filter((name) => enabled.includes(name)).sort(),
    })),
  };
}

/** A posted destination's service filter: trimmed, unique, sorted, every name enabled now. */
function serviceNamesOf(rest: JsonRecord, enabled: readonly string[], index: number): string[] {
  const names = Array.isArray(rest.service_names)
    ? [
        ...new Set(
          rest.service_names.map((name) => String(name).trim()).filter((name) => name !== ''),
        ),
      ].sort()
    : [];
  const unknown = names.filter((name) => !enabled.includes(name));
  if (unknown.length > 0)
    throw new BadRequestError(
      SERVICE_UNKNOWN,
      `Notification service filters may only include currently enabled services: ${unknown.join(', ')}`,
      { field: `config.destinations[${index}].service_names` },
    );
  return names;
}

/** The destination's id: the posted one (unique in the post), or a new random one when blank. */
function idOf(rest: JsonRecord, seen: Set<string>, index: number): string {
  const id =
    typeof rest.id === 'string' && rest.id.trim() !== ''
      ? rest.id.trim()
      : randomUUID().replace(/-/g, '');
  if (seen.has(id))
    throw new BadRequestError(CONFIG_INVALID, `Duplicate destination id: ${id}`, {
      field: `config.destinations[${index}].id`,
    });
  seen.add(id);
  return id;
}

/** One posted destination over the saved one of the same id (secrets kept when posted blank). */
function mergeDestination(
  raw: unknown,
  index: number,
  context: {
    readonly current: NotificationsConfig;
    readonly enabled: readonly string[];
    readonly seen: Set<string>;
    readonly checkUrl: (url: string, field: string) => unknown;
  },
): JsonRecord {
  if (!isJsonRecord(raw))
    throw new BadRequestError(CONFIG_INVALID, `destinations[${index}] must be an object`, {
      field: `config.destinations[${index}]`,
    });
  // The GET booleans are answers, not settings.
  const rest: JsonRecord = { ...raw };
  delete rest.url_configured;
  delete rest.headers_configured;
  const id = idOf(rest, context.seen, index);
  const saved = context.current.destinations.find((destination) => destination.id === id);
  const url =
    typeof rest.url === 'string' && rest.url.trim() !== '' ? rest.url.trim() : (saved?.url ?? '');
  const headers =
    isJsonRecord(rest.headers) && Object.keys(rest.headers).length > 0
      ? rest.headers
      : (saved?.headers ?? {});
  const names = serviceNamesOf(rest, context.enabled, index);
  if (url !== '') context.checkUrl(url, `config.destinations[${index}].url`);
  return { ...rest, id, url, headers, service_names: names };
}

/** Merge a posted config over the current one, check it, and give the slice to save. */
export function mergeSettings(
  current: NotificationsConfig,
  posted: JsonRecord,
  enabled: readonly string[],
  checkUrl: (url: string, field: string) => unknown,
): NotificationsConfig {
  const merged: JsonRecord = { ...current };
  for (const key of Object.keys(NotificationsConfig.properties))
    if (key in posted) merged[key] = posted[key];
  const destinations = Array.isArray(merged.destinations) ? merged.destinations : [];
  const context = { current, enabled, seen: new Set<string>(), checkUrl };
  merged.destinations = destinations.map((raw, index) => mergeDestination(raw, index, context));
  const filled = withDefaults(NotificationsConfig, merged);
  const failures = checkValue(NotificationsConfig, filled);
  const first = failures[0];
  if (first !== undefined)
    throw new BadRequestError(
      CONFIG_INVALID,
      `Invalid notification configuration at ${first.field === '' ? 'root' : first.field}: ${first.message}`,
      { field: first.field === '' ? 'config' : `config.${first.field}` },
    );
  return filled as NotificationsConfig;
}
