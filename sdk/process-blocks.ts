/**
 * How the configuration document maps to processes (CONTRACT.md "The configuration file"):
 * every object-valued top-level key except `stackd` is a service block, either a process block
 * (`process_name` + `command`) or `{ instances: { <Instance>: <process block> } }`. The host's own
 * `stackd.api_service` is listed too: it is the API itself, always running. Every plugin walks
 * the document through these functions, so a name resolves the same way everywhere.
 */
import { isJsonRecord, type JsonRecord } from './config.js';
import { NotFoundError } from './errors.js';

/** The host's own section key. */
export const HOST_SECTION = 'stackd';
/** config_key reported for the API service entry. */
export const API_SERVICE_KEY = 'stackd_api_service';

/** One process found in the document. */
export interface ProcessEntry {
  readonly process_name: string;
  /** Top-level key of the service block (`stackd_api_service` for the API itself). */
  readonly config_key: string;
  /** Instance name for `instances` blocks, else null. */
  readonly instance_name: string | null;
  /** The immediate key: the instance name, else the config key. */
  readonly key: string;
  /** Display name: `<config_key>` or `<config_key> instances <Instance>`. */
  readonly name: string;
  /** Key path of the block in the document (for scoped updates and persists). */
  readonly path: readonly string[];
  /** The block itself (a reference into the document given; copy before mutating). */
  readonly block: JsonRecord;
  /** True for the API service entry (the host itself). */
  readonly self: boolean;
}

function hasProcessName(block: JsonRecord): boolean {
  return typeof block.process_name === 'string' && block.process_name.trim() !== '';
}

/** Every process of the document, in file order. */
export function listProcessEntries(document: JsonRecord): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  const host = document[HOST_SECTION];
  if (isJsonRecord(host) && isJsonRecord(host.api_service) && hasProcessName(host.api_service)) {
    const block = host.api_service;
    entries.push({
      process_name: String(block.process_name),
      config_key: API_SERVICE_KEY,
      instance_name: null,
      key: 'api_service',
      name: 'stackd api_service',
      path: [HOST_SECTION, 'api_service'],
      block,
      self: true,
    });
  }
  for (const [configKey, value] of Object.entries(document)) {
    if (configKey === HOST_SECTION || !isJsonRecord(value)) continue;
    if (isJsonRecord(value.instances)) {
      for (const [instanceName, instance] of Object.entries(value.instances)) {
        if (!isJsonRecord(instance) || !hasProcessName(instance)) continue;
        entries.push({
          process_name: String(instance.process_name),
          config_key: configKey,
          instance_name: instanceName,
          key: instanceName,
          name: `${configKey} instances ${instanceName}`,
          path: [configKey, 'instances', instanceName],
          block: instance,
          self: false,
        });
      }
    } else if (hasProcessName(value)) {
      entries.push({
        process_name: String(value.process_name),
        config_key: configKey,
        instance_name: null,
        key: configKey,
        name: configKey,
        path: [configKey],
        block: value,
        self: false,
      });
    }
  }
  return entries;
}

/** Lower-case, without spaces, dashes or underscores: "Sonarr  Anime" ≈ "sonarr_anime". */
export function normalizeProcessName(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

/**
 * Find a process by the name a request gives: the exact `process_name` first, then the
 * normalized name (case, spaces, dashes and underscores ignored), then the display name
 * (`sonarr instances Anime`) or a singleton's config key. Undefined when nothing matches or a
 * fallback is ambiguous.
 */
export function findProcessEntry<T extends ProcessEntry>(
  entries: readonly T[],
  requested: string,
): T | undefined {
  const exact = entries.find((entry) => entry.process_name === requested);
  if (exact !== undefined) return exact;
  const wanted = normalizeProcessName(requested);
  if (wanted === '') return undefined;
  const fallbacks: Array<(entry: T) => boolean> = [
    (entry) => normalizeProcessName(entry.process_name) === wanted,
    (entry) => normalizeProcessName(entry.name) === wanted,
    (entry) => entry.instance_name === null && normalizeProcessName(entry.config_key) === wanted,
  ];
  for (const matches of fallbacks) {
    const found = entries.filter(matches);
    if (found.length === 1) return found[0];
  }
  return undefined;
}

/** The entry a request names (as {@link findProcessEntry}); a 404 naming `field` when none. */
export function requireProcessEntry<T extends ProcessEntry>(
  entries: readonly T[],
  requested: string,
  field = 'process_name',
): T {
  const found = findProcessEntry(entries, requested);
  if (found === undefined)
    throw new NotFoundError('PROCESS_NOT_FOUND', `Process '${requested}' not found`, { field });
  return found;
}
